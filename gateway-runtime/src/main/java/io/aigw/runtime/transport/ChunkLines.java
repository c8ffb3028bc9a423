package io.aigw.runtime.transport;

import io.helidon.common.buffers.DataReader;

/**
 * The lines of a chunked request body as RFC 9112 (section 7.1) writes them, handed to Helidon
 * 4.5's HTTP/1.1 connection as it can read them. Helidon reads a chunk's size line whole as a
 * hexadecimal number, so a chunk extension ({@code 1a;name=value}) fails its request (400 "could
 * not be read" here, 500 on Helidon alone), and it takes the line after the last chunk for the
 * body's end, so a trailer field fails it too ("Invalid terminating chunk"). RFC 9112 lets a
 * recipient ignore extensions it does not know and discard trailer fields, as nginx does; so here
 * an extension is cut from its size line and the trailer section is read and dropped. Its fields
 * are bounded like a header section, since nothing reads them.
 *
 * <p>Helidon's connection reads lines of a caller's connection only in a chunked body (its
 * {@code readNextChunk}): every line asked for is a chunk's size line, except the one after the
 * last chunk's, where the trailer section stands.
 */
final class ChunkLines {
    /** The trailer section read and dropped at most; more fails the body, as broken framing does. */
    static final int MAX_TRAILER_BYTES = 16 * 1024;

    /** Whether the line just handed over was the last chunk's (size 0): the trailer section follows. */
    private boolean lastChunkRead;

    /** The next line as Helidon can read it: a size line without extensions, or the end of the body. */
    String next(DataReader reader) {
        String line = reader.readLine();
        if (lastChunkRead) {
            lastChunkRead = false;
            int trailers = 0;
            while (!line.isEmpty()) {
                trailers += line.length() + 2;
                if (trailers > MAX_TRAILER_BYTES) {
                    // Unchecked, as Helidon reports a broken chunk: the body's reader answers 400 and
                    // closes the connection, whose rest is no request.
                    throw new IllegalArgumentException("The chunked body's trailer fields exceed "
                            + MAX_TRAILER_BYTES + " bytes.");
                }
                line = reader.readLine();
            }
            return line;
        }
        String size = withoutExtensions(line);
        lastChunkRead = !size.isEmpty() && size.chars().allMatch(c -> c == '0');
        return size;
    }

    /** A size line without its extensions and the optional white space before them (BWS). */
    static String withoutExtensions(String line) {
        int extensions = line.indexOf(';');
        if (extensions < 0) {
            return line;
        }
        int end = extensions;
        while (end > 0 && (line.charAt(end - 1) == ' ' || line.charAt(end - 1) == '\t')) {
            end--;
        }
        return line.substring(0, end);
    }
}
