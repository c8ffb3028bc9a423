package io.aigw.runtime.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * A real headless Chromium driven by Selenium WebDriver through Debian's {@code chromium} and
 * {@code chromium-driver} (named explicitly, so Selenium never looks for a driver on the network),
 * with a fresh profile and nothing that calls out: the machine's network is closed.
 *
 * <p>Without them a test on a laptop is skipped with the reason; in CI ({@code CI=true}), where
 * {@code .ci/run} installs them, it fails.
 */
public final class HeadlessChromium implements AutoCloseable {
    private static final Path BROWSER = Path.of("/usr/bin/chromium");
    private static final Path DRIVER = Path.of("/usr/bin/chromedriver");

    private final ChromeDriver driver;
    private final Path profile;

    private HeadlessChromium(ChromeDriver driver, Path profile) {
        this.driver = driver;
        this.profile = profile;
    }

    /** Starts a browser {@code width} by {@code height} CSS pixels, or skips (fails in CI) without one. */
    public static HeadlessChromium start(int width, int height) {
        if (!Files.isExecutable(BROWSER) || !Files.isExecutable(DRIVER)) {
            String reason = "no " + BROWSER + " or " + DRIVER + ": apt-get install -y chromium chromium-driver";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                Assertions.fail(reason + " (CI=true, where .ci/run installs them)");
            }
            Assumptions.abort(reason);
        }
        Path profile;
        try {
            profile = Files.createTempDirectory("aigw-chromium-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChromeOptions options = new ChromeOptions().setBinary(BROWSER.toFile()).addArguments("--headless",
                "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                "--window-size=" + width + "," + height, "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort().withLogFile(new File("/dev/null")).build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(10));
        return new HeadlessChromium(driver, profile);
    }

    public ChromeDriver driver() {
        return driver;
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            TestGateway.deleteRecursively(profile);
        }
    }
}
