package ballot.cql.type;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.error.InvalidRequestException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class CustomTypeTest {
    private static final CqlType LEXICAL = CqlTypes.parse("'LexicalUUIDType'", UserTypeResolver.NONE);
    private static final CqlType COMPOSITE = CqlTypes.parse("'CompositeType(Int32Type,UTF8Type)'", UserTypeResolver.NONE);
    private static final CqlType DYNAMIC = CqlTypes.parse("'DynamicCompositeType(i=>Int32Type,s=>UTF8Type)'", UserTypeResolver.NONE);

    @Test
    void travelsAsTheCustomOptionNamingItsClass() {
        ByteBuf out = Unpooled.buffer();
        LEXICAL.writeTypeOption(out);
        assertThat(out.readUnsignedShort()).isEqualTo(0x0000);
        assertThat(out.readCharSequence(out.readUnsignedShort(), StandardCharsets.UTF_8).toString())
                .isEqualTo("org.apache.cassandra.db.marshal.LexicalUUIDType");
        LEXICAL.writeTypeOption(out.clear());
        assertThat(CqlTypes.readTypeOption(out)).isEqualTo(LEXICAL);
    }

    @Test
    void literalsAreBlobsAndAnyConstantIsReadByTheClass() {
        ByteBuffer bytes = LEXICAL.fromConstant(ConstantKind.HEX, "0x" + "ab".repeat(16), "c");
        assertThat(LEXICAL.toCqlLiteral(bytes)).isEqualTo("0x" + "ab".repeat(16));
        ByteBuffer parsed = LEXICAL.fromConstant(ConstantKind.UUID, "123e4567-e89b-12d3-a456-426614174000", "c");
        assertThat(LEXICAL.asString(parsed)).isEqualTo("123e4567-e89b-12d3-a456-426614174000");
        assertThat(LEXICAL.fromConstant(ConstantKind.STRING, "123e4567-e89b-12d3-a456-426614174000", "c")).isEqualTo(parsed);
        assertThatThrownBy(() -> LEXICAL.fromConstant(ConstantKind.HEX, "0xabcd", "c"))
                .isInstanceOf(InvalidRequestException.class).hasMessage("UUID should be 16 or 0 bytes (2)");
        assertThatThrownBy(() -> LEXICAL.fromConstant(ConstantKind.INTEGER, "5", "c"))
                .isInstanceOf(InvalidRequestException.class).hasMessage("unable to make UUID from '5'");
        assertThat(LEXICAL.compose(parsed)).isEqualTo(parsed);
    }

    @Test
    void lexicalUuidsOrderAsJavaUuidsWithComparableEncodingsToMatch() {
        List<ByteBuffer> values = new ArrayList<>();
        values.add(ByteBuffer.allocate(0));
        for (long high : new long[] {Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE})
            for (long low : new long[] {Long.MIN_VALUE, -5, 0, 7})
                values.add(ByteBuffer.allocate(16).putLong(high).putLong(low).flip());
        assertOrdersAsEncoded(LEXICAL, values);
        assertThat(LEXICAL.compare(values.get(1), values.get(2))).isEqualTo(
                new UUID(Long.MIN_VALUE, Long.MIN_VALUE).compareTo(new UUID(Long.MIN_VALUE, -5)));
    }

    @Test
    void compositesOrderComponentWiseAndPrefixesFirst() {
        List<ByteBuffer> values = List.of(ByteBuffer.allocate(0), COMPOSITE.fromString("-1"), COMPOSITE.fromString("-1:a"),
                COMPOSITE.fromString("2"), COMPOSITE.fromString("2:"), COMPOSITE.fromString("2:a"),
                COMPOSITE.fromString("2:a:!"), COMPOSITE.fromString("2:b"), COMPOSITE.fromString("10:a"));
        assertOrdersAsEncoded(COMPOSITE, values);
        assertThat(COMPOSITE.compare(COMPOSITE.fromString("2:a"), COMPOSITE.fromString("2:b"))).isNegative();
        assertThat(COMPOSITE.compare(COMPOSITE.fromString("2:a:!"), COMPOSITE.fromString("2:a"))).isPositive();
    }

    @Test
    void compositeBytesAndTextFormFollowCassandra() {
        ByteBuffer value = COMPOSITE.fromString("5:x\\:y");
        byte[] expected = {0, 4, 0, 0, 0, 5, 0, 0, 3, 'x', ':', 'y', 0};
        assertThat(Buffers.toArray(value)).isEqualTo(expected);
        assertThat(COMPOSITE.asString(value)).isEqualTo("5:x\\:y");
        assertThatThrownBy(() -> COMPOSITE.validate(ByteBuffer.wrap(new byte[] {0, 4, 0, 0})))
                .isInstanceOf(InvalidRequestException.class).hasMessage("Not enough bytes to read value of component 0");
        assertThatThrownBy(() -> COMPOSITE.fromString("1:a:b")).isInstanceOf(InvalidRequestException.class)
                .hasMessage("Too many bytes for comparator");
    }

    @Test
    void dynamicCompositesNameEachComponentsTypeByAliasOrClass() {
        ByteBuffer aliased = DYNAMIC.fromString("s@abc:i@7");
        assertThat(Buffers.toArray(aliased)).isEqualTo(new byte[] {
                (byte) 0x80, 's', 0, 3, 'a', 'b', 'c', 0, (byte) 0x80, 'i', 0, 4, 0, 0, 0, 7, 0});
        assertThat(DYNAMIC.asString(aliased)).isEqualTo("s@abc:i@7");
        ByteBuffer named = DYNAMIC.fromString("BytesType@cafe");
        assertThat(DYNAMIC.asString(named)).isEqualTo("BytesType@cafe");
        // different types order by the class's simple name: BytesType < Int32Type < UTF8Type
        assertThat(DYNAMIC.compare(named, DYNAMIC.fromString("i@1"))).isNegative();
        assertThat(DYNAMIC.compare(DYNAMIC.fromString("i@100"), DYNAMIC.fromString("s@a"))).isNegative();
        assertThat(DYNAMIC.compare(DYNAMIC.fromString("i@2"), DYNAMIC.fromString("Int32Type@10"))).isNegative();
        assertThat(DYNAMIC.isAllowedInPrimaryKey()).isFalse();
        assertThatThrownBy(() -> DYNAMIC.validate(ByteBuffer.wrap(new byte[] {(byte) 0x80, 'z', 0, 0, 0})))
                .isInstanceOf(InvalidRequestException.class).hasMessage("Cannot find comparator for component 0");
    }

    private static void assertOrdersAsEncoded(CqlType type, List<ByteBuffer> values) {
        List<ByteBuffer> byCompare = new ArrayList<>(values);
        byCompare.sort(type::compare);
        List<byte[]> encodings = new ArrayList<>();
        for (ByteBuffer v : values) {
            ComparableBytesWriter out = new ComparableBytesWriter();
            type.encodeComparable(v, out);
            byte[] bytes = out.toByteArray();
            assertThat(type.decodeComparable(new ComparableBytesReader(bytes))).isEqualTo(v);
            encodings.add(bytes);
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) order.add(i);
        order.sort(Comparator.comparing(encodings::get, Arrays::compareUnsigned));
        List<ByteBuffer> byEncoding = order.stream().map(values::get).toList();
        assertThat(byEncoding).isEqualTo(byCompare);
        assertThat(byCompare).isEqualTo(values);
    }
}
