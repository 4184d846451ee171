package ballot.cql.type;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.error.InvalidRequestException;
import org.junit.jupiter.api.Test;

class CqlDurationTest {
    @Test
    void fieldsMustShareASign() {
        assertThatThrownBy(() -> new CqlDuration(1, -1, 0)).isInstanceOf(InvalidRequestException.class)
                .hasMessage("The duration months, days and nanoseconds must be all of the same sign (1, -1, 0)");
        assertThat(new CqlDuration(-1, 0, -5)).isEqualTo(CqlDuration.parse("-1mo5ns"));
    }

    @Test
    void printsLargestUnitsFirstAsCassandraDoes() {
        assertThat(new CqlDuration(14, 3, CqlDuration.NANOS_PER_HOUR + 2 * CqlDuration.NANOS_PER_MILLI + 3).toString())
                .isEqualTo("1y2mo3d1h2ms3ns");
        assertThat(new CqlDuration(0, -7, 0).toString()).isEqualTo("-7d");
        assertThat(new CqlDuration(0, 0, 0).toString()).isEmpty();
    }

    @Test
    void parsesEveryUnitOnce() {
        assertThat(CqlDuration.parse("1y2mo3w4d5h6m7s8ms9us10ns")).isEqualTo(new CqlDuration(14, 25,
                5 * CqlDuration.NANOS_PER_HOUR + 6 * CqlDuration.NANOS_PER_MINUTE + 7 * CqlDuration.NANOS_PER_SECOND
                        + 8 * CqlDuration.NANOS_PER_MILLI + 9 * CqlDuration.NANOS_PER_MICRO + 10));
        assertThat(CqlDuration.parse("PT1S")).isEqualTo(new CqlDuration(0, 0, CqlDuration.NANOS_PER_SECOND));
        assertThatThrownBy(() -> CqlDuration.parse("1d1y")).hasMessage("Invalid duration. The days should be after years");
        assertThatThrownBy(() -> CqlDuration.parse("P1Y1H")).hasMessage("Unable to convert 'P1Y1H' to a duration");
    }
}
