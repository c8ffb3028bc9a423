package io.aigw.runtime.store;

/**
 * Matches a model id against an allow-list pattern, where {@code *} stands for any run of
 * characters ({@code /} included) and nothing else is special, in time linear in the lengths of
 * the pattern and the id: no backtracking. The pattern's first piece must start the id and its
 * last piece end it; each piece between two stars is then found leftmost after the one before it
 * (Knuth-Morris-Pratt). Leftmost is enough: a piece found further left leaves the pieces after it
 * every place a piece found further right would.
 */
final class ModelGlob {
    private long steps;

    private ModelGlob() {
    }

    /** Whether {@code id} matches {@code pattern}. */
    static boolean matches(String pattern, String id) {
        return new ModelGlob().match(pattern, id);
    }

    /** The characters compared and table entries made to match {@code id} against {@code pattern}. */
    static long steps(String pattern, String id) {
        ModelGlob glob = new ModelGlob();
        glob.match(pattern, id);
        return glob.steps;
    }

    private boolean match(String pattern, String id) {
        int firstStar = pattern.indexOf('*');
        steps += pattern.length();
        if (firstStar < 0) {
            steps += id.length();
            return pattern.equals(id);
        }
        int lastStar = pattern.lastIndexOf('*');
        int suffix = pattern.length() - lastStar - 1;
        if (id.length() < firstStar + suffix) {
            return false;
        }
        steps += firstStar + suffix;
        if (!id.startsWith(pattern.substring(0, firstStar))
                || !id.regionMatches(id.length() - suffix, pattern, lastStar + 1, suffix)) {
            return false;
        }
        int from = firstStar;
        int to = id.length() - suffix;
        int[] table = null;
        int piece = firstStar + 1;
        while (piece <= lastStar) {
            int end = pattern.indexOf('*', piece);
            if (end > piece) {
                if (table == null) {
                    table = new int[lastStar - firstStar];
                }
                int found = find(pattern, piece, end, id, from, to, table);
                if (found < 0) {
                    return false;
                }
                from = found + end - piece;
            }
            piece = end + 1;
        }
        return true;
    }

    /** The index of the first {@code pattern[start, end)} in {@code id[from, to)}, or -1. */
    private int find(String pattern, int start, int end, String id, int from, int to, int[] table) {
        int length = end - start;
        // table[i]: the length of the longest proper prefix of the piece's first i + 1 characters that also ends them.
        table[0] = 0;
        for (int i = 1, k = 0; i < length; i++) {
            while (k > 0 && pattern.charAt(start + i) != pattern.charAt(start + k)) {
                k = table[k - 1];
                steps++;
            }
            if (pattern.charAt(start + i) == pattern.charAt(start + k)) {
                k++;
            }
            table[i] = k;
            steps++;
        }
        for (int i = from, matched = 0; i < to; i++) {
            while (matched > 0 && id.charAt(i) != pattern.charAt(start + matched)) {
                matched = table[matched - 1];
                steps++;
            }
            if (id.charAt(i) == pattern.charAt(start + matched)) {
                matched++;
            }
            steps++;
            if (matched == length) {
                return i - length + 1;
            }
        }
        return -1;
    }
}
