package ballot.cql.type;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import ballot.cql.error.ProtocolException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Types as {@code [option]}s (native_protocol_v4.spec §4.2.5.2). Expected bytes are what Cassandra 5.0.9 writes
 * for the same types, as captured from its {@code DataType.codec}.
 */
class TypeOptionTest {
    private static String option(CqlType type, int version) {
        ByteBuf out = Unpooled.buffer();
        try {
            type.writeTypeOption(out, version);
            return ByteBufUtil.hexDump(out);
        } finally {
            out.release();
        }
    }

    private static String custom(String className) {
        byte[] name = className.getBytes(StandardCharsets.UTF_8);
        return "0000" + String.format("%04x", name.length) + HexFormat.of().formatHex(name);
    }

    @Test
    void nativeTypesWriteTheirIds() {
        assertThat(option(CqlTypes.ASCII, 5)).isEqualTo("0001");
        assertThat(option(CqlTypes.BIGINT, 5)).isEqualTo("0002");
        assertThat(option(CqlTypes.BLOB, 5)).isEqualTo("0003");
        assertThat(option(CqlTypes.BOOLEAN, 5)).isEqualTo("0004");
        assertThat(option(CqlTypes.COUNTER, 5)).isEqualTo("0005");
        assertThat(option(CqlTypes.DECIMAL, 5)).isEqualTo("0006");
        assertThat(option(CqlTypes.DOUBLE, 5)).isEqualTo("0007");
        assertThat(option(CqlTypes.FLOAT, 5)).isEqualTo("0008");
        assertThat(option(CqlTypes.INT, 5)).isEqualTo("0009");
        assertThat(option(CqlTypes.TIMESTAMP, 5)).isEqualTo("000b");
        assertThat(option(CqlTypes.UUID, 5)).isEqualTo("000c");
        assertThat(option(CqlTypes.TEXT, 5)).isEqualTo("000d");
        assertThat(option(CqlTypes.VARINT, 5)).isEqualTo("000e");
        assertThat(option(CqlTypes.TIMEUUID, 5)).isEqualTo("000f");
        assertThat(option(CqlTypes.INET, 5)).isEqualTo("0010");
        assertThat(option(CqlTypes.DATE, 5)).isEqualTo("0011");
        assertThat(option(CqlTypes.TIME, 5)).isEqualTo("0012");
        assertThat(option(CqlTypes.SMALLINT, 5)).isEqualTo("0013");
        assertThat(option(CqlTypes.TINYINT, 5)).isEqualTo("0014");
    }

    @Test
    void durationIsCustomBeforeProtocolV5() {
        assertThat(option(CqlTypes.DURATION, 5)).isEqualTo("0015");
        assertThat(option(CqlTypes.DURATION, 4)).isEqualTo(custom("org.apache.cassandra.db.marshal.DurationType"));
        assertThat(option(CqlTypes.list(CqlTypes.DURATION, false), 4))
                .isEqualTo("0020" + custom("org.apache.cassandra.db.marshal.DurationType"));
        ByteBuf out = Unpooled.buffer();
        CqlTypes.DURATION.writeTypeOption(out);
        assertThat(ByteBufUtil.hexDump(out)).isEqualTo("0015");
        out.release();
    }

    @Test
    void collectionsAndTuplesNestTheirElementOptions() {
        assertThat(option(CqlTypes.map(CqlTypes.TEXT, CqlTypes.INT, true), 5)).isEqualTo("0021000d0009");
        assertThat(option(CqlTypes.list(CqlTypes.tuple(List.of(CqlTypes.INT, CqlTypes.TEXT)), false), 5))
                .isEqualTo("0020" + "0031" + "0002" + "0009" + "000d");
        assertThat(option(CqlTypes.set(CqlTypes.map(CqlTypes.INT, CqlTypes.TEXT, true), false), 5))
                .isEqualTo("0022" + "0021" + "0009" + "000d");
    }

    @Test
    void userTypesWriteKeyspaceNameAndFields() {
        UserType address = CqlTypes.userType("ks", "Addr", List.of("street", "Zip", "tags"),
                List.of(CqlTypes.TEXT, CqlTypes.INT, CqlTypes.set(CqlTypes.TEXT, true)), false);
        String expected = "0030" + "0002" + "6b73" + "0004" + "41646472" + "0003"
                + "0006" + "737472656574" + "000d" + "0003" + "5a6970" + "0009" + "0004" + "74616773" + "0022000d";
        assertThat(option(address, 5)).isEqualTo(expected);
        assertThat(option(address.freeze(), 5)).isEqualTo(expected);
    }

    @Test
    void vectorsAreTheCustomTypeCassandraSends() {
        assertThat(option(CqlTypes.vector(CqlTypes.FLOAT, 3), 5)).isEqualTo(custom(
                "org.apache.cassandra.db.marshal.VectorType(org.apache.cassandra.db.marshal.FloatType , 3)"));
        assertThat(option(CqlTypes.vector(CqlTypes.list(CqlTypes.INT, true), 2), 4)).isEqualTo(custom(
                "org.apache.cassandra.db.marshal.VectorType(org.apache.cassandra.db.marshal.FrozenType("
                        + "org.apache.cassandra.db.marshal.ListType(org.apache.cassandra.db.marshal.Int32Type)) , 2)"));
        UserType point = CqlTypes.userType("ks", "point", List.of("x", "y"), List.of(CqlTypes.INT, CqlTypes.INT), false);
        assertThat(option(CqlTypes.vector(point, 2), 5)).isEqualTo(custom(
                "org.apache.cassandra.db.marshal.VectorType(org.apache.cassandra.db.marshal.UserType(ks,706f696e74,"
                        + "78:org.apache.cassandra.db.marshal.Int32Type,79:org.apache.cassandra.db.marshal.Int32Type) , 2)"));
    }

    @Test
    void marshalNamesFollowCassandrasFreezingRules() {
        UserType address = CqlTypes.userType("ks", "Addr", List.of("tags"), List.of(CqlTypes.set(CqlTypes.TEXT, true)), false);
        assertThat(address.marshalName(false)).isEqualTo("org.apache.cassandra.db.marshal.UserType(ks,41646472,"
                + "74616773:org.apache.cassandra.db.marshal.FrozenType(org.apache.cassandra.db.marshal.SetType("
                + "org.apache.cassandra.db.marshal.UTF8Type)))");
        assertThat(address.freeze().marshalName(false)).isEqualTo("org.apache.cassandra.db.marshal.FrozenType("
                + "org.apache.cassandra.db.marshal.UserType(ks,41646472,74616773:org.apache.cassandra.db.marshal.SetType("
                + "org.apache.cassandra.db.marshal.UTF8Type)))");
        assertThat(CqlTypes.tuple(List.of(CqlTypes.list(CqlTypes.INT, true))).marshalName(false)).isEqualTo(
                "org.apache.cassandra.db.marshal.TupleType(org.apache.cassandra.db.marshal.ListType("
                        + "org.apache.cassandra.db.marshal.Int32Type))");
    }

    private static final UserType ADDRESS = CqlTypes.userType("ks", "Addr", List.of("street", "Zip", "tags"),
            List.of(CqlTypes.TEXT, CqlTypes.INT, CqlTypes.set(CqlTypes.TEXT, true)), false);

    private static List<CqlType> sampleTypes() {
        return List.of(CqlTypes.INT, CqlTypes.DURATION, CqlTypes.VARINT, CqlTypes.list(CqlTypes.TEXT, false),
                CqlTypes.map(CqlTypes.TIMEUUID, CqlTypes.set(CqlTypes.DATE, true), false),
                CqlTypes.tuple(List.of(CqlTypes.INT, CqlTypes.list(CqlTypes.BLOB, true))), ADDRESS,
                CqlTypes.list(ADDRESS.freeze(), false), CqlTypes.vector(CqlTypes.FLOAT, 3),
                CqlTypes.vector(CqlTypes.list(CqlTypes.INT, true), 2), CqlTypes.vector(ADDRESS, 2));
    }

    @Test
    void optionsReadBackAsTheTypesWritten() {
        for (CqlType type : sampleTypes()) {
            for (int version : new int[] {4, 5}) {
                ByteBuf out = Unpooled.buffer();
                type.writeTypeOption(out, version);
                CqlType read = CqlTypes.readTypeOption(out);
                assertThat(out.isReadable()).isFalse();
                assertThat(option(read, version)).as("%s v%d", type, version).isEqualTo(option(type, version));
                assertThat(read.freeze()).as("%s v%d", type, version).isEqualTo(type.freeze());
                out.release();
            }
        }
        ByteBuf unknown = Unpooled.wrappedBuffer(new byte[] {0x00, 0x40});
        assertThatThrownBy(() -> CqlTypes.readTypeOption(unknown)).isInstanceOf(ProtocolException.class);
    }

    @Test
    void marshalNamesParseBackToTheSameType() {
        for (CqlType type : sampleTypes()) {
            assertThat(MarshalNameParser.parse(type.marshalName(false))).as(type.marshalName(false)).isEqualTo(type);
            assertThat(MarshalNameParser.parse(type.freeze().marshalName(false))).isEqualTo(type.freeze());
        }
        assertThat(MarshalNameParser.parse("Int32Type")).isSameAs(CqlTypes.INT);
        assertThat(MarshalNameParser.parse("org.apache.cassandra.db.marshal.ReversedType(org.apache.cassandra.db.marshal.UTF8Type)"))
                .isSameAs(CqlTypes.TEXT);
        assertThat(CqlTypes.parse("'org.apache.cassandra.db.marshal.Int32Type'", UserTypeResolver.NONE)).isSameAs(CqlTypes.INT);
    }
}
