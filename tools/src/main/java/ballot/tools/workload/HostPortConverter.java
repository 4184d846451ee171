package ballot.tools.workload;

import java.net.InetSocketAddress;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** {@code host}, {@code host:port}, {@code [v6addr]} or {@code [v6addr]:port}; the CQL port 9042 when none is given. */
final class HostPortConverter implements ITypeConverter<InetSocketAddress> {
    static final int CQL_PORT = 9042;

    @Override
    public InetSocketAddress convert(String value) {
        String host = value;
        String port = null;
        if (value.startsWith("[")) {
            int close = value.indexOf(']');
            if (close < 0) throw new TypeConversionException("'" + value + "' has no closing ']'");
            host = value.substring(1, close);
            String rest = value.substring(close + 1);
            if (!rest.isEmpty()) {
                if (!rest.startsWith(":")) throw new TypeConversionException("'" + value + "': expected ':port' after ']'");
                port = rest.substring(1);
            }
        } else if (value.indexOf(':') >= 0) {
            if (value.indexOf(':') != value.lastIndexOf(':')) throw new TypeConversionException("'" + value + "': write an IPv6 address as [address]:port");
            host = value.substring(0, value.indexOf(':'));
            port = value.substring(value.indexOf(':') + 1);
        }
        if (host.isEmpty()) throw new TypeConversionException("'" + value + "' has no host");
        return new InetSocketAddress(host, port == null ? CQL_PORT : parsePort(value, port));
    }

    private static int parsePort(String value, String port) {
        int p = port.matches("\\d{1,5}") ? Integer.parseInt(port) : 0;
        if (p >= 1 && p <= 65_535) return p;
        throw new TypeConversionException("'" + value + "': port '" + port + "' is not a number from 1 to 65535");
    }
}
