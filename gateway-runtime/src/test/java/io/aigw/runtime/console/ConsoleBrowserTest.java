package io.aigw.runtime.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.pricing.PriceBook;
import io.aigw.runtime.routing.RoutingSnapshot;
import io.aigw.runtime.testing.CannedUpstream;
import io.aigw.runtime.testing.HeadlessChromium;
import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.TestGateway;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console in a real headless Chromium against a real gateway and a fake upstream: what an
 * operator does, and what the page must never do. Each page's screenshot is written to
 * {@code target/console-screenshots}, and to the folder the {@code aigw.console.screenshots}
 * system property names ({@code docs/console} when the pictures of docs/console.md are renewed).
 *
 * <p>The model {@code openai/console-test} costs USD 10 a million prompt tokens and 100 a million
 * completion tokens; the upstream reports 1000 and 2000: USD 0.21 a request.
 */
public final class ConsoleBrowserTest {
    private static final String ANSWER = "{\"id\":\"c1\",\"object\":\"chat.completion\",\"model\":\"console-test\","
            + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"hi\"},"
            + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":1000,\"completion_tokens\":2000,"
            + "\"total_tokens\":3000}}";
    private static final String XSS = "<img src=x onerror=alert(1)>";
    private static final Duration WAIT = Duration.ofSeconds(15);

    private static MockWebServer upstream;
    private static TestGateway gateway;
    private static HeadlessChromium chromium;
    private static ChromeDriver browser;

    @BeforeAll
    static void start() throws Exception {
        chromium = HeadlessChromium.start(1280, 900);
        browser = chromium.driver();
        upstream = CannedUpstream.start(200, ANSWER);
        gateway = TestGateway.start(Map.of("providers.openai.base-url", upstream.url("/v1").toString(),
                "gateway.access-log", "off",
                "providers.openai.models.0.id", "console-test",
                "providers.openai.models.0.context-length", "4000",
                "providers.openai.models.0.pricing.input", "10",
                "providers.openai.models.0.pricing.output", "100"), Map.of("OPENAI_API_KEY", "sk-upstream"));
    }

    @AfterAll
    static void stop() throws Exception {
        // The browser first: its live stream then ends at once and the gateway stops without waiting on it.
        if (chromium != null) {
            chromium.close();
        }
        if (gateway != null) {
            gateway.close();
        }
        if (upstream != null) {
            upstream.close();
        }
    }

    @BeforeEach
    void signedOut() {
        browser.manage().window().setSize(new Dimension(1280, 900));
        browser.get(gateway.uri("/console/").toString());
        browser.manage().deleteAllCookies();
        browser.navigate().refresh();
        until(driver -> driver.findElement(By.id("sign-in")).isDisplayed());
    }

    @Test
    void anAdminCreatesABudgetedKeySeesItsTrafficWithoutReloadingChangesItsRpmAndRevokesIt() throws Exception {
        signIn(TestGateway.KEY);
        screenshot("overview");
        go("keys");
        type("new-name", "team-a");
        type("new-budget", "5");
        type("new-rpm", "60");
        browser.findElement(By.cssSelector("#create-key button[type=submit]")).click();
        String key = until(driver -> driver.findElement(By.id("new-key-text"))).getText();
        assertTrue(key.matches(KeysApi.KEY_PATTERN), key);
        until(driver -> cells("team-a").get(3).getText().equals("rpm 60"));
        browser.findElement(By.xpath("//button[text()='Done']")).click();

        assertEquals(200, chat(key).statusCode());
        until(driver -> cells("team-a").get(4).getText().startsWith("$0.2100 of $5.0000 per month"));
        screenshot("keys");

        go("overview");
        BigDecimal before = todaySpent();
        assertEquals(200, chat(key).statusCode());
        until(driver -> todaySpent().equals(before.add(new BigDecimal("0.2100"))));
        assertTrue(browser.findElement(By.cssSelector("#chart .uplot")).isDisplayed());

        go("live");
        until(driver -> rows("live-table").stream().filter(row -> row.getText().contains("team-a")).count() == 2);
        String live = rows("live-table").get(0).getText();
        assertTrue(live.contains("team-a openai/console-test 200") && live.contains("3,000 $0.2100"), live);
        screenshot("live");

        go("keys");
        // The list is redrawn as traffic changes it: each step is tried again on a redrawn row.
        until(driver -> {
            WebElement rpm = cells("team-a").get(6).findElement(By.className("rpm"));
            rpm.clear();
            rpm.sendKeys("1");
            cells("team-a").get(6).findElement(By.className("save-rpm")).click();
            return true;
        });
        until(driver -> cells("team-a").get(3).getText().equals("rpm 1"));
        String id = until(driver -> cells("team-a").get(1).getText());
        assertEquals(1, KeysApi.of(gateway).listed(id).getInt("rpm"));

        until(driver -> {
            cells("team-a").get(6).findElement(By.className("revoke")).click();
            return true;
        });
        // Keyboard: the confirmation has the focus, and Enter confirms.
        until(driver -> driver.switchTo().activeElement().getText().equals("Confirm revoke of team-a"));
        browser.switchTo().activeElement().sendKeys("\n");
        until(driver -> cells("team-a").get(5).getText().equals("revoked"));
        assertEquals(401, chat(key).statusCode());
    }

    @Test
    void theUsagePageFiltersAndItsCsvDownloads() {
        JsonObject key = KeysApi.of(gateway).createKey("usage-key");
        assertEquals(200, chat(key.getString("key")).statusCode());
        signIn(TestGateway.KEY);
        go("usage");
        until(driver -> driver.findElement(By.id("usage-table")).getText().contains("usage-key"));
        screenshot("usage");
        WebElement csv = browser.findElement(By.id("usage-csv"));
        assertEquals("usage.csv", csv.getDomAttribute("download"));
        assertFalse(csv.getDomAttribute("href").contains("sk-gw-"));
        // What the link downloads, fetched as the browser would, with the session cookie alone.
        String text = (String) browser.executeAsyncScript("const done = arguments[arguments.length - 1];"
                + "fetch(document.getElementById('usage-csv').href).then(r => r.text()).then(done);");
        assertTrue(text.startsWith("\"key_id\",\"key_name\",\"requests\""), text);
        assertTrue(text.contains(",\"usage-key\",1,1000,2000,3000,0.210000000,"), text);
    }

    @Test
    void reloadingPluginsSaysWhatChangedAndThePagesNameThePricesInForce() {
        signIn(TestGateway.KEY);
        go("plugins");
        String before = browser.findElement(By.id("plugin-generation")).getText();
        browser.findElement(By.id("reload-plugins")).click();
        until(driver -> driver.findElement(By.id("reload-result")).getText().startsWith("Reloaded: routing generation"));
        assertFalse(browser.findElement(By.id("plugin-generation")).getText().equals(before));
        RoutingSnapshot routes = gateway.gateway().routes();
        String inForce = browser.findElement(By.id("plugin-prices")).getText();
        assertTrue(inForce.matches("Prices " + routes.prices().version()
                + " in force since \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} UTC"), inForce);
        Provider openai = routes.table().byPriority().stream().filter(provider -> provider.prefix().equals("openai"))
                .findFirst().orElseThrow();
        String priceTable = rows("plugin-table").stream().map(row -> row.findElements(By.tagName("td")))
                .filter(cells -> cells.get(0).getText().equals("openai")).findFirst().orElseThrow().get(6).getText();
        assertTrue(priceTable.startsWith(PriceBook.of(Provider.prices(List.of(openai))).version() + ", "), priceTable);
        assertTrue(priceTable.endsWith(", as of 2026-11-26, 1 set in configuration"), priceTable);
        screenshot("plugins");
    }

    @Test
    void aKeyNamedWithMarkupShowsAsText() {
        assertEquals(201, KeysApi.of(gateway).create("{\"name\":\"" + XSS + "\"}").statusCode());
        signIn(TestGateway.KEY);
        go("keys");
        until(driver -> !cells(XSS).isEmpty());
        assertTrue(browser.findElements(By.tagName("img")).isEmpty());
        go("usage");
        until(driver -> driver.findElement(By.id("usage-key")).getText().contains(XSS));
        assertTrue(browser.findElements(By.tagName("img")).isEmpty());
    }

    @Test
    void aKeyThatIsNotAnAdminsSeesItsOwnKeyAlone() {
        KeysApi.of(gateway).createKey("someone-else");
        JsonObject key = KeysApi.of(gateway).create("{\"name\":\"reader\",\"budget_usd\":2,\"budget_period\":\"month\"}")
                .body().transform(KeysApi::json);
        assertEquals(200, chat(key.getString("key")).statusCode());
        signIn(key.getString("key"));
        until(driver -> driver.findElement(By.id("self-totals")).getText().startsWith("1 requests"));
        String page = browser.findElement(By.id("page")).getText();
        assertTrue(page.contains("reader") && page.contains("$0.2100 of $2.0000 per month"), page);
        assertFalse(page.contains("someone-else"), page);
        List<String> shown = browser.findElements(By.cssSelector("#nav a")).stream().filter(WebElement::isDisplayed)
                .map(WebElement::getText).toList();
        assertEquals(List.of("My key"), shown);
        screenshot("my-key");
        browser.get(gateway.uri("/console/#keys").toString());
        until(driver -> driver.findElement(By.id("self-totals")).isDisplayed());
        assertFalse(browser.findElement(By.id("page")).getText().contains("someone-else"));
    }

    @Test
    void aForgedCrossSitePostIsRefusedAndCreatesNothing() throws Exception {
        signIn(TestGateway.KEY);
        // Another site (localhost is not 127.0.0.1) whose page posts a key creation to the gateway.
        String target = gateway.uri("/admin/v1/keys").toString();
        String evil = "<!DOCTYPE html><form id=f method=POST enctype=text/plain action='" + target + "'>"
                + "<input type=hidden name='{\"name\":\"forged\",\"x\":\"' value='\"}'></form>"
                + "<script>document.getElementById('f').submit()</script>";
        try (MockWebServer site = new MockWebServer()) {
            site.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/html").body(evil).build());
            site.start();
            browser.get("http://localhost:" + site.getPort() + "/");
            until(driver -> driver.getCurrentUrl().startsWith(target));
            String answer = browser.findElement(By.tagName("body")).getText();
            assertTrue(answer.contains("\"type\":\"authentication_error\"")
                    || answer.contains("\"code\":\"cross_site_request\""), answer);
        }
        assertFalse(KeysApi.of(gateway).list().body().contains("forged"));
    }

    @Test
    void thePagesWorkAtPhoneWidth() {
        browser.manage().window().setSize(new Dimension(390, 844));
        signIn(TestGateway.KEY);
        go("keys");
        WebElement name = browser.findElement(By.id("new-name"));
        assertTrue(name.isDisplayed());
        Long overflow = (Long) browser.executeScript(
                "return document.documentElement.scrollWidth - document.documentElement.clientWidth");
        assertEquals(0L, overflow, "the page scrolls sideways at 390 px");
        screenshot("keys-phone");
    }

    private static void signIn(String key) {
        type("sign-in-key", key);
        browser.findElement(By.cssSelector("#sign-in button[type=submit]")).click();
        until(driver -> driver.findElement(By.id("who")).isDisplayed());
        assertTrue(browser.manage().getCookies().stream().allMatch(cookie -> cookie.isHttpOnly()
                && !cookie.getValue().contains("sk-gw-")));
        assertEquals("", browser.findElement(By.id("sign-in-key")).getDomProperty("value"));
    }

    /** What the Overview's Today card says was spent. */
    private static BigDecimal todaySpent() {
        String today = browser.findElement(By.cssSelector("#overview-cards .card")).getText();
        Matcher spent = Pattern.compile("\\$([0-9.]+) spent").matcher(today);
        assertTrue(spent.find(), today);
        return new BigDecimal(spent.group(1));
    }

    private static void go(String page) {
        browser.findElement(By.cssSelector("#nav a[data-page=" + page + "]")).click();
        until(driver -> !driver.findElements(By.cssSelector("#page section[data-page=" + page + "]")).isEmpty());
    }

    private static void type(String id, String text) {
        WebElement input = browser.findElement(By.id(id));
        input.clear();
        input.sendKeys(text);
    }

    /** The cells of the key list's row whose first cell is {@code name}; none when there is no such row. */
    private static List<WebElement> cells(String name) {
        return rows("key-list").stream().map(row -> row.findElements(By.tagName("td")))
                .filter(cells -> !cells.isEmpty() && cells.get(0).getText().equals(name))
                .findFirst().orElse(List.of());
    }

    private static List<WebElement> rows(String holder) {
        return browser.findElements(By.cssSelector("#" + holder + " tbody tr"));
    }

    private static <T> T until(java.util.function.Function<WebDriver, T> condition) {
        try {
            return new WebDriverWait(browser, WAIT).ignoring(IndexOutOfBoundsException.class)
                    .ignoring(StaleElementReferenceException.class).until(condition);
        } catch (org.openqa.selenium.TimeoutException e) {
            throw new AssertionError("waited " + WAIT + " in vain; the page says: "
                    + browser.findElement(By.tagName("body")).getText(), e);
        }
    }

    private static HttpResponse<String> chat(String key) {
        return gateway.send(HttpRequest.newBuilder(gateway.uri("/api/v1/chat/completions"))
                .header("Authorization", "Bearer " + key)
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"openai/console-test\",\"messages\":"
                        + "[{\"role\":\"user\",\"content\":\"hi\"}]}")).build());
    }

    private static void screenshot(String name) {
        byte[] png = browser.getScreenshotAs(OutputType.BYTES);
        try {
            for (Optional<String> folder : List.of(Optional.of("target/console-screenshots"),
                    Optional.ofNullable(System.getProperty("aigw.console.screenshots")))) {
                if (folder.isPresent()) {
                    Path dir = Files.createDirectories(Path.of(folder.get()));
                    Files.write(dir.resolve(name + ".png"), png);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
