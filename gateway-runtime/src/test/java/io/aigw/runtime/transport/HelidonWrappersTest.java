package io.aigw.runtime.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.helidon.common.buffers.DataReader;
import io.helidon.common.buffers.DataWriter;
import io.helidon.common.socket.HelidonSocket;
import io.helidon.webclient.api.ClientConnection;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each class here that stands in for a Helidon type passes on, or answers itself, every method of
 * that type: a method Helidon adds (a default one compiles silently) fails this test until the class
 * says what to do with it.
 */
final class HelidonWrappersTest {

    /** A class of the transport, the Helidon type it stands in for, and the methods it leaves to Helidon's default. */
    record Wrapper(Class<?> wrapper, Class<?> helidonType, Set<String> leftToHelidon) {
        @Override
        public String toString() {
            return wrapper.getSimpleName() + " as " + helidonType.getSimpleName();
        }
    }

    static List<Wrapper> wrappers() {
        return List.of(
                new Wrapper(RestartingDataReader.class, DataReader.class, Set.of()),
                new Wrapper(ForwardingConnectionContext.class, ConnectionContext.class, Set.of()),
                new Wrapper(ForwardingSelector.class, ServerConnectionSelector.class,
                        Set.of("connection(io.helidon.webserver.ConnectionContext)")),
                new Wrapper(RestartingReaderSelector.class, ServerConnectionSelector.class, Set.of()),
                new Wrapper(PrefaceSelector.class, ServerConnectionSelector.class, Set.of()),
                // Deprecated for removal; Helidon calls handle(Limit), which its default leads to.
                new Wrapper(FirstBytesConnection.class, ServerConnection.class,
                        Set.of("handle(java.util.concurrent.Semaphore)")),
                new Wrapper(PooledConnection.class, ClientConnection.class, Set.of()),
                new Wrapper(ForwardingSocket.class, HelidonSocket.class, Set.of()),
                new Wrapper(ReadAheadSocket.class, HelidonSocket.class, Set.of()),
                new Wrapper(CallerSocket.class, HelidonSocket.class, Set.of()),
                new Wrapper(Http10Writer.class, DataWriter.class, Set.of()),
                new Wrapper(GuardedSelector.class, ServerConnectionSelector.class, Set.of()),
                new Wrapper(GuardedSelector.Guarded.class, ServerConnection.class, Set.of()),
                new Wrapper(WatchableSelector.class, ServerConnectionSelector.class, Set.of()),
                new Wrapper(WatchableSelector.WatchedHandling.class, ServerConnection.class, Set.of()));
    }

    @ParameterizedTest
    @MethodSource("wrappers")
    void everyMethodOfTheHelidonTypeIsDeclared(Wrapper wrapper) {
        Set<String> missing = Arrays.stream(wrapper.helidonType().getMethods())
                .filter(method -> !Modifier.isStatic(method.getModifiers()))
                .filter(method -> method.getDeclaringClass() != Object.class)
                .filter(method -> !declares(wrapper.wrapper(), method))
                .map(HelidonWrappersTest::signature)
                .collect(Collectors.toCollection(java.util.TreeSet::new));

        assertEquals(wrapper.leftToHelidon(), missing, wrapper + " does not declare these methods of Helidon's");
    }

    /** Whether {@code type} or a class it extends declares {@code method}: its own, not the interface's default. */
    private static boolean declares(Class<?> type, Method method) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            try {
                c.getDeclaredMethod(method.getName(), method.getParameterTypes());
                return true;
            } catch (NoSuchMethodException e) {
                // Not here: the class it extends may.
            }
        }
        return false;
    }

    private static String signature(Method method) {
        return method.getName() + Arrays.stream(method.getParameterTypes()).map(Class::getName)
                .collect(Collectors.joining(",", "(", ")"));
    }
}
