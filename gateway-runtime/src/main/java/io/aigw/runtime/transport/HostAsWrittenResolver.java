package io.aigw.runtime.transport;

import io.helidon.webclient.api.DnsAddressLookup;
import io.helidon.webclient.spi.DnsResolver;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/**
 * Resolves an upstream's host so that TLS verifies it as the base URL writes it: an IP address
 * against the certificate's IP addresses, a name against its names. Helidon's client hands the TLS
 * handshake the resolved address's host name, which for an address written as digits is whatever
 * reverse DNS says ({@code localhost} for {@code 127.0.0.1}); the address returned here carries the
 * literal as its name, so no reverse lookup happens and no other name is checked (package doc, 4).
 * A name that does not resolve fails with an {@link UnknownHostException}, which Helidon's own
 * resolver would turn into a bare {@link IllegalArgumentException}.
 */
final class HostAsWrittenResolver implements DnsResolver {
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    @Override
    public InetAddress resolveAddress(String host, DnsAddressLookup lookup) {
        String literal = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        try {
            if (IPV4.matcher(literal).matches() || literal.indexOf(':') >= 0) {
                // A literal is parsed, never looked up; the name given with it is what getHostName returns.
                return InetAddress.getByAddress(literal, InetAddress.getByName(literal).getAddress());
            }
            InetAddress[] addresses = lookup.filter(InetAddress.getAllByName(host));
            if (addresses.length == 0) {
                throw new UnknownHostException(host + " has no address of the kind asked for (" + lookup + ")");
            }
            return addresses[0];
        } catch (UnknownHostException e) {
            throw new UncheckedIOException(e);
        }
    }
}
