package io.aigw.runtime.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.aigw.runtime.error.Jsons;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParser.Event;
import java.io.StringReader;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The parser under the admin API's bodies: what it passes on, and its bookkeeping across skipped values. */
final class MemberCheckingParserTest {

    @Test
    void everyMethodOfJsonParserIsPassedOnButTheLazyStreamsSoANewOneIsNoticed() {
        Set<String> leftUnsupported = Set.of("getArrayStream", "getObjectStream", "getValueStream");

        List<String> notPassedOn = Arrays.stream(JsonParser.class.getMethods())
                .filter(method -> !Modifier.isStatic(method.getModifiers()))
                .filter(method -> !leftUnsupported.contains(method.getName()))
                .filter(method -> !declared(method))
                .map(Method::getName)
                .toList();

        assertEquals(List.of(), notPassedOn);
        assertThrows(UnsupportedOperationException.class, () -> parser("[1]").getArrayStream());
    }

    @Test
    void skippedAndWholeValuesCloseTheirStructureSoLaterMembersAreStillCheckedAndNamed() {
        MemberCheckingParser parser = parser("{\"a\":{\"x\":1,\"x\":2},\"b\":[[1],{}],\"c\":{\"y\":[]},\"a\":0}");

        assertEquals(Event.START_OBJECT, parser.next());
        assertEquals(Event.KEY_NAME, parser.next());
        assertEquals(Event.START_OBJECT, parser.next());
        parser.skipObject();
        assertEquals(Event.KEY_NAME, parser.next());
        assertEquals("b", parser.member());
        assertEquals(Event.START_ARRAY, parser.next());
        parser.skipArray();
        assertEquals(Event.KEY_NAME, parser.next());
        assertEquals(Event.START_OBJECT, parser.next());
        assertEquals("{\"y\":[]}", parser.getValue().toString());
        assertEquals("c", parser.member());

        MemberCheckingParser.DuplicateMember twice = assertThrows(MemberCheckingParser.DuplicateMember.class,
                parser::next);
        assertEquals("a", twice.name());
    }

    @Test
    void aNameRepeatedInANestedObjectIsRefusedAndNoMemberIsNamedOnceTheBodyCloses() {
        MemberCheckingParser nested = parser("{\"a\":[{\"x\":1,\"x\":2}]}");
        for (int i = 0; i < 6; i++) {
            nested.next();
        }
        assertEquals("x", assertThrows(MemberCheckingParser.DuplicateMember.class, nested::next).name());
        assertEquals("a", nested.member());

        MemberCheckingParser closed = parser("{\"a\":1}");
        while (closed.hasNext()) {
            closed.next();
        }
        assertNull(closed.member());
    }

    private static boolean declared(Method method) {
        try {
            MemberCheckingParser.class.getDeclaredMethod(method.getName(), method.getParameterTypes());
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    private static MemberCheckingParser parser(String json) {
        return new MemberCheckingParser(Jsons.PROVIDER.createParser(new StringReader(json)));
    }
}
