package io.github.uidgen.autoconfigure.actuate;

import java.time.Duration;
import java.time.Instant;

import io.github.uidgen.LayoutExhaustedException;
import io.github.uidgen.UidClock;
import io.github.uidgen.UidException;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.UidGeneratorStatus;
import io.github.uidgen.UidLayout;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * The {@code uid} health component, from the generator's {@link UidGeneratorStatus}: DOWN when it cannot issue IDs
 * (lease lost, layout exhausted, high-water mark not recordable, store down); UP otherwise, with the layout's expiry
 * date and a warning once it comes within the configured window.
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
		UidGeneratorStatus status = this.generator.status();
		builder.withDetail("generator", status.kind());
		if (status.worker() != null) {
			builder.withDetail("workerId", status.worker().id()).withDetail("assigner", status.worker().assigner());
			if (status.worker().switches() > 0) {
				builder.withDetail("workerSwitches", status.worker().switches());
			}
			if (status.worker().previousId() != null) {
				builder.withDetail("previousWorkerId", status.worker().previousId());
			}
		}
		UidLayout layout = status.layout();
		Instant now = Instant.ofEpochMilli(this.clock.currentTimeMillis());
		UidException failure = status.failure();
		if (layout != null) {
			builder.withDetail("expiry", layout.getExpiry().toString());
			if (failure == null && !layout.getExpiry().isAfter(now)) {
				failure = new LayoutExhaustedException(layout.getExpiry());
			}
		}
		if (failure != null) {
			builder.down().withDetail("error", failure.getMessage());
			return;
		}
		if (layout != null) {
			Duration left = Duration.between(now, layout.getExpiry());
			if (left.compareTo(this.expiryWarning) < 0) {
				builder.withDetail("warning", "The ID layout runs out in " + left.toDays() + " days, on "
						+ layout.getExpiry() + "; move to a layout with more uid.time-bits or a later uid.epoch before "
						+ "then");
			}
		}
		builder.up();
	}

}
