package io.github.uidgen;

import java.util.List;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.LoggerFactory;

/**
 * What one class logs during each test, at a level of the test's choosing, for tests that assert on what uid says:
 * register it with {@code @RegisterExtension}; the logger's level is set back after each test.
 */
public final class CapturedLog implements BeforeEachCallback, AfterEachCallback {

	private final Logger logger;

	private final Level level;

	private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

	private Level levelBefore;

	private CapturedLog(Class<?> loggingClass, Level level) {
		this.logger = (Logger) LoggerFactory.getLogger(loggingClass);
		this.level = level;
	}

	/**
	 * Captures what a class logs at a level and above.
	 * @param loggingClass the class whose logger to capture
	 * @param level the least level captured
	 * @return the extension to register
	 */
	public static CapturedLog of(Class<?> loggingClass, Level level) {
		return new CapturedLog(loggingClass, level);
	}

	@Override
	public void beforeEach(ExtensionContext context) {
		this.levelBefore = this.logger.getLevel();
		this.logger.setLevel(this.level);
		this.appender.list.clear();
		this.appender.start();
		this.logger.addAppender(this.appender);
	}

	@Override
	public void afterEach(ExtensionContext context) {
		this.logger.detachAppender(this.appender);
		this.logger.setLevel(this.levelBefore);
	}

	/** Forgets what was captured so far, for a test that looks at one step at a time. */
	public void clear() {
		this.appender.list.clear();
	}

	/** Every event captured so far in this test. */
	public List<ILoggingEvent> events() {
		return List.copyOf(this.appender.list);
	}

	/**
	 * The messages of the events at a level and above, formatted.
	 * @param atLeast the least level
	 * @return the messages, in the order they were logged
	 */
	public List<String> messages(Level atLeast) {
		return events().stream()
			.filter((event) -> event.getLevel().isGreaterOrEqual(atLeast))
			.map(ILoggingEvent::getFormattedMessage)
			.toList();
	}

}
