package io.aigw.runtime.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The allow-list glob: the same answers as the regular expression it stands for, and work bounded
 * by the lengths of the pattern and the id, patterns built to make a backtracking matcher crawl
 * included.
 */
public final class ModelGlobTest {

    @Test
    void matchesAsTheGlobsRegularExpressionDoes() {
        List<String[]> cases = List.of(
                new String[] {"openai/*", "openai/gpt-5"}, new String[] {"openai/*", "openai/"},
                new String[] {"openai/*", "openai"}, new String[] {"*-mini", "openai/gpt-5-mini"},
                new String[] {"*", ""}, new String[] {"**", "x"}, new String[] {"a*b*c", "abc"},
                new String[] {"a*b*c", "acb"}, new String[] {"a*aa*a", "aaa"}, new String[] {"a*aa*a", "aaaa"},
                new String[] {"openai/gpt-5", "openai/gpt-5"}, new String[] {"openai/gpt-5", "openai/gpt-5-mini"},
                new String[] {"*ab*ab*", "abab"}, new String[] {"*aab*", "aaab"}, new String[] {"*abcabd*", "abcabcabd"},
                new String[] {"x*/*y", "x/y"}, new String[] {"x*/*y", "x//y"});
        for (String[] c : cases) {
            assertEquals(reference(c[0], c[1]), ModelGlob.matches(c[0], c[1]), c[0] + " ~ " + c[1]);
        }
        Random random = new Random(48);
        for (int i = 0; i < 20_000; i++) {
            String pattern = word(random, "ab*", 1 + random.nextInt(8));
            String id = word(random, "ab", random.nextInt(10));
            assertEquals(reference(pattern, id), ModelGlob.matches(pattern, id), pattern + " ~ " + id);
        }
    }

    @Test
    void patternsThatMakeABacktrackingMatcherCrawlTakeStepsLinearInTheirLengths() {
        String id = "a".repeat(300);
        List<String> adversarial = new ArrayList<>();
        adversarial.add("*a".repeat(149) + "b");
        adversarial.add("*a".repeat(149) + "*b");
        adversarial.add("a*" + "a".repeat(148) + "b*");
        adversarial.add("*" + "a".repeat(298) + "b");
        adversarial.add("*" + "a".repeat(149) + "b*" + "a".repeat(148));
        for (String pattern : adversarial) {
            assertTrue(pattern.length() <= 300, pattern);
            assertFalse(ModelGlob.matches(pattern, id), pattern);
            long steps = ModelGlob.steps(pattern, id);
            assertTrue(steps <= 3L * (pattern.length() + id.length()), steps + " steps for " + pattern);
        }
        String matching = "*a".repeat(149) + "*";
        assertTrue(ModelGlob.matches(matching, id));
        assertTrue(ModelGlob.steps(matching, id) <= 3L * (matching.length() + id.length()));
    }

    private static boolean reference(String glob, String id) {
        String regex = Arrays.stream(glob.split("\\*", -1)).map(Pattern::quote).collect(Collectors.joining(".*"));
        return Pattern.compile(regex, Pattern.DOTALL).matcher(id).matches();
    }

    private static String word(Random random, String alphabet, int length) {
        StringBuilder word = new StringBuilder();
        for (int i = 0; i < length; i++) {
            word.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return word.toString();
    }
}
