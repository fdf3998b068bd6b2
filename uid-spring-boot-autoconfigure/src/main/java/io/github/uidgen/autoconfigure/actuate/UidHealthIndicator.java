package io.github.uidgen.autoconfigure.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import io.github.uidgen.LayoutExhaustedException;
import io.github.uidgen.UidClock;
import io.github.uidgen.UidException;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.UidGeneratorStatus;
import io.github.uidgen.UidLayout;
import io.github.uidgen.segment.SegmentUidGenerator;
import io.github.uidgen.segment.SegmentUidGenerators;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * The {@code uid} health component, from the generator's {@link UidGeneratorStatus}: DOWN when it cannot issue IDs
 * (lease lost, until a worker ID is claimed again; layout exhausted; high-water mark not recordable; store down); UP
 * otherwise, and UP again as soon as it issues again, with the layout's expiry
 * date and a warning once it comes within the configured window. With the segment generator, the details show the
 * key, step and numbers left, and under {@code keys} the same for every key in use; a key that cannot hand out
 * numbers makes the component DOWN.
 */
public class UidHealthIndicator extends AbstractHealthIndicator {

	private final UidGenerator generator;

	private final UidClock clock;

	private final Duration expiryWarning;

	private final @Nullable SegmentUidGenerators segmentGenerators;

	/**
	 * Creates an indicator.
	 * @param generator the generator to watch
	 * @param clock the clock to compare the expiry with
	 * @param expiryWarning how long before the expiry to warn
	 */
	public UidHealthIndicator(UidGenerator generator, UidClock clock, Duration expiryWarning) {
		this(generator, clock, expiryWarning, null);
	}

	/**
	 * Creates an indicator that also watches the generators of every segment key.
	 * @param generator the generator to watch
	 * @param clock the clock to compare the expiry with
	 * @param expiryWarning how long before the expiry to warn
	 * @param segmentGenerators the generators of segment keys, or {@code null} without the segment generator
	 */
	public UidHealthIndicator(UidGenerator generator, UidClock clock, Duration expiryWarning,
			@Nullable SegmentUidGenerators segmentGenerators) {
		super("uid health check failed");
		this.generator = generator;
		this.clock = clock;
		this.expiryWarning = (expiryWarning != null) ? expiryWarning : Duration.ZERO;
		this.segmentGenerators = segmentGenerators;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		UidGeneratorStatus status = this.generator.status();
		builder.withDetail("generator", status.kind());
		if (status.worker() != null) {
			if (status.worker().datacenterId() != null) {
				builder.withDetail("datacenterId", status.worker().datacenterId());
			}
			builder.withDetail("workerId", status.worker().id()).withDetail("assigner", status.worker().assigner());
			if (status.worker().switches() > 0) {
				builder.withDetail("workerSwitches", status.worker().switches());
			}
			if (status.worker().previousId() != null) {
				builder.withDetail("previousWorkerId", status.worker().previousId());
			}
			if (status.worker().recoveries() > 0) {
				builder.withDetail("workerRecoveries", status.worker().recoveries());
			}
		}
		UidGeneratorStatus.Segment segment = status.segment();
		if (segment != null) {
			builder.withDetail("key", segment.key())
				.withDetail("step", segment.step())
				.withDetail("remaining", segment.remaining());
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
		if (this.segmentGenerators != null) {
			UidException keyFailure = addSegmentKeys(builder, this.segmentGenerators);
			if (failure == null) {
				failure = keyFailure;
			}
		}
		if (failure != null) {
			builder.down().withDetail("error", failure.getMessage());
			return;
		}
		StringBuilder warnings = new StringBuilder();
		if (status.worker() != null && status.worker().isRidingThrough()) {
			warnings.append(rideThrough(builder, status.worker(), now));
		}
		if (layout != null) {
			Duration left = Duration.between(now, layout.getExpiry());
			if (left.compareTo(this.expiryWarning) < 0) {
				warnings.append(warnings.isEmpty() ? "" : " ")
					.append("The ID layout runs out in ")
					.append(left.toDays())
					.append(" days, on ")
					.append(layout.getExpiry())
					.append("; move to a layout with more uid.time-bits or a later uid.epoch before then.");
			}
		}
		if (!warnings.isEmpty()) {
			builder.withDetail("warning", warnings.toString());
		}
		builder.up();
	}

	/**
	 * The details of a generator that issues while its worker store does not answer: it stays UP (it serves, and
	 * taking every instance out of a load balancer for a store outage would be an outage of its own) until issue is
	 * about to stop, which makes its status DOWN.
	 */
	private static String rideThrough(Health.Builder builder, UidGeneratorStatus.Worker worker, Instant now) {
		Duration left = Duration.between(now, worker.issuableUntil());
		if (left.isNegative()) {
			left = Duration.ZERO;
		}
		builder.withDetail("storeSilentFor", worker.storeSilent().toString())
			.withDetail("issueUntil", worker.issuableUntil().toString())
			.withDetail("issueLeft", left.toString());
		return "The " + worker.assigner() + " worker store has not answered for " + seconds(worker.storeSilent())
				+ "; the generator goes on issuing until " + worker.issuableUntil() + " (" + seconds(left)
				+ " from now), on its recorded mark and its lease, and stops there unless the store answers. Renewals "
				+ "are retried every 100 ms.";
	}

	private static String seconds(Duration duration) {
		return String.format(Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0);
	}

	/**
	 * Adds every segment key's state and returns the failure of the first key, in key order, that cannot hand out
	 * numbers: code asking for that key fails, so the application is not healthy.
	 */
	private static @Nullable UidException addSegmentKeys(Health.Builder builder, SegmentUidGenerators generators) {
		Map<String, Object> keys = new TreeMap<>();
		UidException firstFailure = null;
		for (SegmentUidGenerator generator : new TreeMap<>(generators.generators()).values()) {
			UidGeneratorStatus status = generator.status();
			UidException failure = status.failure();
			Map<String, Object> details = new LinkedHashMap<>();
			details.put("status", (failure != null) ? "DOWN" : "UP");
			details.put("step", status.segment().step());
			details.put("remaining", status.segment().remaining());
			if (failure != null) {
				details.put("error", failure.getMessage());
				firstFailure = (firstFailure != null) ? firstFailure : failure;
			}
			keys.put(generator.getKey(), details);
		}
		builder.withDetail("keys", keys);
		return firstFailure;
	}

}
