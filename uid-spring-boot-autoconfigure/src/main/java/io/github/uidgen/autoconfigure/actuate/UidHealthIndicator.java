package io.github.uidgen.autoconfigure.actuate;

import java.time.Duration;
import java.time.Instant;

import io.github.uidgen.LayoutExhaustedException;
import io.github.uidgen.UidClock;
import io.github.uidgen.UidException;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.impl.AbstractUidGenerator;
import io.github.uidgen.segment.SegmentUidGenerator;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * The {@code uid} health component: DOWN when the generator cannot issue IDs (lease lost, layout exhausted,
 * high-water mark not recordable, segment store down with every claimed number used up); UP otherwise, with the
 * layout's expiry date and a warning once it comes within the configured window.
 */
public class UidHealthIndicator extends AbstractHealthIndicator {

	private final UidGenerator generator;

	private final UidClock clock;

	private final Duration expiryWarning;

	/**
	 * Creates an indicator.
	 * @param generator the generator to watch
	 * @param clock the clock to compare the expiry with
	 * @param expiryWarning how long before the expiry to warn
	 */
	public UidHealthIndicator(UidGenerator generator, UidClock clock, Duration expiryWarning) {
		super("uid health check failed");
		this.generator = generator;
		this.clock = clock;
		this.expiryWarning = (expiryWarning != null) ? expiryWarning : Duration.ZERO;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		if (this.generator instanceof SegmentUidGenerator segment) {
			segmentHealth(segment, builder);
			return;
		}
		Instant expiry = this.generator.layout().getExpiry();
		Instant now = Instant.ofEpochMilli(this.clock.currentTimeMillis());
		builder.withDetail("expiry", expiry.toString());
		UidException failure = null;
		if (this.generator instanceof AbstractUidGenerator running) {
			builder.withDetail("generator", running.kind())
				.withDetail("workerId", running.getWorkerId())
				.withDetail("assigner", running.getAssignerName());
			failure = running.getFailure();
		}
		else if (!expiry.isAfter(now)) {
			failure = new LayoutExhaustedException(expiry);
		}
		if (failure != null) {
			builder.down().withDetail("error", failure.getMessage());
			return;
		}
		Duration left = Duration.between(now, expiry);
		if (left.compareTo(this.expiryWarning) < 0) {
			builder.withDetail("warning", "The ID layout runs out in " + left.toDays() + " days, on " + expiry
					+ "; move to a layout with more uid.time-bits or a later uid.epoch before then");
		}
		builder.up();
	}

	/** A segment generator has no layout to expire: DOWN when it cannot hand out numbers, UP otherwise. */
	private static void segmentHealth(SegmentUidGenerator segment, Health.Builder builder) {
		builder.withDetail("generator", segment.kind())
			.withDetail("key", segment.getKey())
			.withDetail("store", segment.getStoreName());
		UidException failure = segment.getFailure();
		if (failure != null) {
			builder.down().withDetail("error", failure.getMessage());
			return;
		}
		UidException storeFailure = segment.getStoreFailure();
		if (storeFailure != null) {
			builder.withDetail("warning", "Serving the " + segment.getRemaining() + " numbers already claimed; the "
					+ "store fails: " + storeFailure.getMessage());
		}
		builder.up();
	}

}
