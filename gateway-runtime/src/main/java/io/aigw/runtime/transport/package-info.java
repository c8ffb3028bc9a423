/**
 * The gateway's transport: which protocols callers speak and how their connections are read
 * ({@link io.aigw.runtime.transport.CallerProtocols}), and where upstream connections come from
 * ({@link io.aigw.runtime.transport.UpstreamConnections}). Helidon does the HTTP; this package
 * holds the gateway's workarounds of Helidon 4.5 behaviour and nothing else, each switchable back
 * to Helidon's own path ({@link io.aigw.runtime.transport.TransportOptions}), and each guarded by a
 * test that shows the behaviour on Helidon's path, so that it fails once Helidon no longer has it.
 *
 * <h2>1. A reader that starts afresh between requests ({@code gateway.transport.restarting-reader})</h2>
 * Helidon's {@code DataReader} links each chunk it reads from a socket to the one before and drops
 * a consumed chunk without unlinking it, and a caller's connection keeps one reader for its life.
 * Once a chunk is in the old generation (a full collection moves the current one there), every
 * chunk the connection reads after it stays reachable from that dead chunk until the next full
 * collection: young collections copy and promote request bytes, the old generation fills, and full
 * collections follow each other. {@link io.aigw.runtime.transport.RestartingDataReader} starts a
 * new reader whenever all that was read is consumed, so a dead chain stops growing; the upstream
 * side does the same per answer ({@link io.aigw.runtime.transport.PooledConnection}).
 * Shown by {@code RestartingDataReaderTest} (weak references to the chunks, under the serial
 * collector); measured by {@code benchmarks/load/reader-chain.sh}, run with
 * {@code GATEWAY_TRANSPORT_RESTARTING_READER=false} for Helidon's path. Retired when Helidon's
 * reader unlinks a chunk it has consumed (or starts a reader per request). Until then this is the
 * workaround most exposed to Helidon: it extends {@code DataReader} through a constructor deprecated
 * for removal, which is private on Helidon's main branch.
 *
 * <p>The same reader hands Helidon a chunked body's lines as it can read them
 * ({@link io.aigw.runtime.transport.ChunkLines}): Helidon 4.5 reads a chunk's size line whole as a
 * number and the line after the last chunk as the body's end, so a chunk extension or a trailer
 * field, both allowed by RFC 9112, failed the request (500 or no answer on Helidon alone, 400
 * here). Extensions are cut from their size line and the trailer section (16 KB at most) is read
 * and dropped, as nginx does. With {@code restarting-reader} off, Helidon's own reading applies.
 * Shown by {@code ChunkExtensionsTest#helidonAloneRefusesChunkExtensionsAndTrailers}. Retired when
 * Helidon's {@code Http1Connection.readNextChunk} ignores extensions and reads trailers.
 *
 * <h2>2. Protocol selection that never leaves a caller unanswered ({@code gateway.transport.protocol-selection})</h2>
 * With HTTP/2 on ({@code gateway.http2}), Helidon asks each protocol whether it recognises a
 * connection's first bytes: HTTP/1.1 claims only a first line that ends in {@code HTTP/1.1}, HTTP/2
 * only its preface, and a connection neither claims is closed without a word (a request line
 * without a version, an HTTP/1.0 one). {@link io.aigw.runtime.transport.PrefaceSelector} claims every
 * connection and gives HTTP/1.1 whatever is not HTTP/2's preface, so such a caller gets HTTP/1.1's
 * 400 as it does with HTTP/1.1 alone (where Helidon asks no question). Shown by
 * {@code CallerProtocolsTest}. Retired when Helidon hands a connection no protocol claims to
 * HTTP/1.1 (or answers it 400) instead of closing it.
 *
 * <h2>3. The gateway's own upstream pool ({@code gateway.transport.upstream-pool})</h2>
 * Helidon's client cache hands every connection it gets back to a new thread that reads the idle
 * socket in rounds of 101 ms to notice a close, for as long as the socket's read timeout, and the
 * connection's next read first waits for that thread to end: a thread started and joined for each
 * reuse. With no read timeout, which is what the gateway's deadlines let it use, the watch gives up
 * after one round and fails the connection: one idle longer is dropped unclosed and a new one
 * opened, and a request sent on one whose answer takes longer than that round fails. Helidon's
 * client also reads a connection with one {@code DataReader} for its life, so the chain of (1) grows
 * on the upstream side. {@link io.aigw.runtime.transport.GatewayConnections} keeps idle connections
 * in a lock-free deque with no thread, reads each answer with a new reader, finds a connection the
 * upstream closed when it is next used, and then sends the request once more on a new one; on
 * Helidon's path the gateway sets a read timeout beyond its deadlines
 * ({@link io.aigw.runtime.transport.UpstreamConnections#socketReadTimeout}). Shown by
 * {@code UpstreamPoolTest} (the watching thread) and {@code ConnectionReuseTest} (run on both
 * paths); measured with {@code benchmarks/run.sh} or {@code benchmarks/load/*} run with
 * {@code GATEWAY_TRANSPORT_UPSTREAM_POOL=helidon}, in CPU per request and full collections.
 * Retired when Helidon's cache checks an idle connection when it is taken, not with a thread, and
 * its client's reader unlinks what it has consumed.
 *
 * <h2>4. TLS that verifies an upstream's host as its URL writes it</h2>
 * Helidon's client gives the TLS handshake the host name of the address it resolved, and an
 * address resolved from digits ({@code https://127.0.0.1}) has none until reverse DNS is asked: the
 * certificate is then checked against that name ({@code localhost}), not the address, and each new
 * connection waits on a reverse lookup. {@link io.aigw.runtime.transport.HostAsWrittenResolver}
 * returns an address that carries the literal as its name, so an IP address is verified against
 * the certificate's IP addresses (and sent no SNI), as curl, nginx and Envoy do; a name resolves as
 * before. Not switchable: Helidon's path verifies a name nobody configured. Shown by
 * {@code HostAsWrittenResolverTest}. Retired when Helidon's {@code Tls.createSocket} takes the
 * connection's host as written rather than {@code InetSocketAddress.getHostName()}.
 *
 * <h2>5. A caller that hangs up is noticed while its request waits ({@code gateway.transport.caller-watch})</h2>
 * Helidon reads a caller's HTTP/1.1 connection only between requests, and offers no way to learn
 * that a caller closed its connection while a handler works: a caller that hangs up while its
 * request waits on an upstream is noticed only when the answer is written, after the upstream has
 * generated all of it (up to the first-byte timeout for a plain answer, the next event for a quiet
 * stream). {@link io.aigw.runtime.transport.ReadAheadSocket} reads the caller's socket ahead while
 * the handler watches ({@link io.aigw.runtime.transport.CallerWatch}): the end of the connection
 * there ends the upstream call at once, as nginx's check for a broken connection does, and bytes
 * there (a pipelined request) are handed to the connection's reader as its next read, so nothing
 * is lost or reordered. A request is watched once its upstream call has lasted one tick of the
 * upstream deadlines (a tenth of the shortest upstream timeout, 100 ms at most): the read ahead
 * hands the connection's next read from one thread to another, which a quick call need not pay.
 * Like nginx, a caller that only half-closes its side counts as gone. Not for
 * HTTP/2, whose streams Helidon handles on threads of their own. Shown by {@code CallerLeavesTest}
 * (Helidon's path keeps the upstream call when the switch is off). Retired when Helidon tells a
 * handler that its connection closed.
 *
 * <h2>6. The front door: deadlines and RFC 9112's ends of a connection (not switchable)</h2>
 * Every HTTP/1.1 connection is read through a {@link io.aigw.runtime.transport.CallerSocket}
 * ({@link io.aigw.runtime.transport.GuardedSelector}), told by Helidon's parser what it has read
 * ({@link io.aigw.runtime.transport.CallerEvents}). Helidon 4.5 has no header or body timeout at
 * all, and its {@code idle-connection-timeout} (5 minutes, looked at every 2) closes only a
 * connection waiting for its next request line: a caller that sends half a request holds its
 * connection for good, and idle callers fill {@code max-tcp-connections} for minutes. The socket's
 * reads get deadlines ({@link io.aigw.runtime.transport.CallerTimeouts}), and
 * {@link io.aigw.runtime.transport.DeadlineSweeper} closes a socket whose read is overdue. A
 * request body must also keep a pace ({@link io.aigw.runtime.transport.BodyPace}): a deadline
 * between reads alone lets a caller hold a body, its memory and its request slot for as long as it
 * sends a byte now and then; a read that finds the body behind fails with
 * {@link io.aigw.runtime.transport.CallerTooSlow}, which the body's reader answers 408 before the
 * connection closes (the sweeper cannot answer: it can only close a socket, and Helidon's
 * {@code PlainSocket} offers no read timeout to wake the reader with instead).
 * Helidon 4.5 also answers {@code Connection: close} (asked by the request, or set by the answer)
 * and then reads the next request on the connection, requests it already buffered included: a
 * caller (or a proxy) that takes the connection for closed is out of step with the gateway, the
 * ground of request smuggling. After such an answer the connection is asked to close the way
 * Helidon closes an idle one ({@code close(false)}: after the answer), and its socket reads nothing
 * more; after an error answer, what the caller still sends is read and dropped before the socket
 * closes (nginx's lingering close), so that the caller reads the answer rather than a reset. Two
 * refusals Helidon's parser does not make are added: a method that is not an upper-case token on a
 * connection's first request (Helidon takes {@code post} for {@code POST}, and answers 500 for a
 * control character), and a header line without a name. Helidon 4.5 refuses HTTP/1.0 (505, and
 * before that a closed connection), which is what nginx sends upstream by default: an HTTP/1.0
 * request line is read as HTTP/1.1, the connection closes after the answer unless the caller asked
 * for keep-alive, and an answer of unknown length goes out without chunks, ended by the close
 * ({@link io.aigw.runtime.transport.Http10Writer}). And the listener takes a few connections beyond
 * the callers' share ({@link io.aigw.runtime.transport.CallerReserve}) for {@code /observe/*} alone,
 * so that health is answered while idle callers hold every caller's connection. Not switchable:
 * Helidon's path has neither timeouts nor a connection that ends when its answer says so. Shown by
 * {@code FramingTest#helidonAloneReadsOnAfterAnsweringConnectionClose}; the reproduction on
 * Helidon alone: {@code printf 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nGET /
 * HTTP/1.1\r\nHost: x\r\n\r\n' | nc 127.0.0.1 8080} prints two answers. Retired, in part, when
 * Helidon ends a connection after {@code Connection: close} and times a request's headers and body.
 * Two costs of Helidon 4.5 on every request are left out, their effect kept: its check of the
 * request's path, which parses each path as a URI, is made by the prologue listener only for a path
 * that is not plain letters, digits and {@code / - _ ~}
 * ({@code FramingTest#aPathThatIsNoUriPathIsRefused}); and answers to HTTP/1.1 no longer say
 * {@code Connection: keep-alive}, which HTTP/1.1 implies and which Helidon tokenizes again after
 * every answer (HTTP/1.0 callers that ask still get it).
 *
 * <h2>7. The end of an upstream's connection read as the end of a body, or as a cut (not switchable)</h2>
 * HTTP/1.1 lets a server end a body by closing its connection (neither a length nor chunks; RFC
 * 9112, section 6.3), as Python's {@code http.server} and some proxies send a stream. Helidon's
 * client reads such a body to the close and then throws {@code DataReader}'s unchecked
 * {@code InsufficientDataAvailableException} instead of ending the stream; it throws the same when a
 * close cuts a body short of its length or last chunk. Unchecked and Helidon's own, it escaped the
 * relays, which read an upstream as plain {@code java.io}: the caller's stream was never ended.
 * {@link io.aigw.runtime.transport.UpstreamBodyStream} makes the first the body's end ({@code -1})
 * and the second an {@code EOFException}, and says which kind of body it reads, since only a
 * stream's content can tell a close that ends it from one that cuts it. Not switchable: Helidon's
 * path breaks the caller's answer. Shown by {@code UpstreamBodyStreamTest}. Retired when Helidon's
 * client ends a body delimited by the close with {@code -1} and reports a cut body as an
 * {@code IOException}.
 *
 * <p>Gone with Helidon 4.5.0: a global {@code MapperManager} set at start (Helidon 4.4.0's registry
 * made a new manager for each header value converted; fixed upstream, and the request path no
 * longer converts header values through it). Not here: how many carrier threads run the virtual
 * threads, a JDK matter ({@code io.aigw.runtime.CarrierThreads}).
 */
package io.aigw.runtime.transport;
