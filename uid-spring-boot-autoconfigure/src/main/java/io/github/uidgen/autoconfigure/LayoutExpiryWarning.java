package io.github.uidgen.autoconfigure;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import io.github.uidgen.UidClock;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.UidLayout;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Warns once, as a generator starts, when its ID layout has less than two years left: time enough to plan a move to
 * a layout that lasts, which the health check's warning (a year by default) and the alert on
 * {@code uid.layout.remaining} then keep in view.
 */
final class LayoutExpiryWarning {

	private static final Log logger = LogFactory.getLog(LayoutExpiryWarning.class);

	/** Two years of 365 days: less than this left at start is worth a line in the log. */
	static final Duration WARN_BELOW = Duration.ofDays(2 * 365);

	private LayoutExpiryWarning() {
	}

	/**
	 * Logs a warning when the generator's layout runs out within {@link #WARN_BELOW}.
	 * @param <G> the generator type
	 * @param generator the generator just built
	 * @param clock the clock the expiry is compared with
	 * @return the generator
	 */
	static <G extends UidGenerator> G warnIfNear(G generator, UidClock clock) {
		String warning = warning(generator.layout(), clock.currentTimeMillis());
		if (warning != null) {
			logger.warn(warning);
		}
		return generator;
	}

	/** The warning for a layout at a time, or {@code null} when it has two years or more left. */
	static @Nullable String warning(@Nullable UidLayout layout, long nowMillis) {
		if (layout == null) {
			return null;
		}
		Instant expiry = layout.getExpiry();
		Duration left = Duration.between(Instant.ofEpochMilli(nowMillis), expiry);
		if (left.compareTo(WARN_BELOW) >= 0 || left.isNegative()) {
			return null;
		}
		return "The uid ID layout (" + layout + ") runs out on " + expiry.atOffset(ZoneOffset.UTC).toLocalDate()
				+ ", in " + left.toDays() + " days; no ID can be issued after that. Plan the move to a layout that "
				+ "lasts longer (more uid.time-bits, or a later uid.epoch with seconds as uid.time-unit), see "
				+ "docs/operations.md#layout-running-out";
	}

}
