package io.github.uidgen.autoconfigure.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

import io.github.uidgen.UidClock;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.UidGeneratorStatus;
import io.github.uidgen.UidLayout;
import io.github.uidgen.autoconfigure.StartingUidGenerator;
import io.github.uidgen.segment.SegmentUidGenerators;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;

/**
 * Micrometer meters of a uid generator, read from its {@link UidGeneratorStatus} when the registry is scraped, so ID
 * issue itself pays nothing for them; a generator gets the meters of the parts its status has.
 *
 * <ul>
 * <li>{@code uid.ids.issued} IDs handed out (counter)</li>
 * <li>{@code uid.clock.backwards} times the clock was seen going back (counter)</li>
 * <li>{@code uid.mark.failures} times recording the high-water mark failed and was retried (counter)</li>
 * <li>{@code uid.worker.switches} times the default generator moved to another worker ID because the clock stepped
 * back (counter)</li>
 * <li>{@code uid.worker.recoveries} times the generator claimed a worker ID again by itself after a lost lease and
 * issued again (counter)</li>
 * <li>{@code uid.clock.ahead} how far the latest issued or produced ID lies ahead of the clock (time gauge)</li>
 * <li>{@code uid.ring.size}, {@code uid.ring.capacity} IDs waiting in the cached generator's ring, and its slots
 * (gauges)</li>
 * <li>{@code uid.ring.put.rejections}, {@code uid.ring.take.rejections} puts that found the ring full, takes that
 * found it empty (counters)</li>
 * <li>{@code uid.ring.fill.errors} fills that failed and were retried (counter)</li>
 * <li>{@code uid.segment.fetched} segments claimed from the store (counter)</li>
 * <li>{@code uid.segment.step}, {@code uid.segment.remaining} numbers the next claim takes, numbers left in memory
 * (gauges)</li>
 * <li>{@code uid.segment.store.failures} claims from the store that failed (counter)</li>
 * <li>{@code uid.unavailable} 1 while the generator refuses to issue (lease lost, mark not recordable, layout
 * exhausted, store down), 0 otherwise (gauge)</li>
 * <li>{@code uid.worker.lease.lost} 1 while the worker ID's lease is lost and the generator claims again, 0
 * otherwise (gauge)</li>
 * <li>{@code uid.worker.id}, {@code uid.worker.id.space} the worker ID issued as, and how many worker IDs the layout
 * has (in each data center): a fleet's count of the first against the second is how full the space is (gauges)</li>
 * <li>{@code uid.layout.remaining} how long until the layout's expiry, the first instant it cannot encode (time
 * gauge)</li>
 * <li>{@code uid.sequence.exhausted} the time spent in units whose sequence ran out, so that issue waited for the
 * next unit (counter, in seconds: its rate is the share of time the default generator ran at its ceiling)</li>
 * </ul>
 * Each meter carries the tag {@code generator} ({@code default}, {@code cached} or {@code segment}); a segment
 * generator's meters also carry {@code key}, its business key. With {@link SegmentUidGenerators}, every key's
 * generator gets its meters, including those of keys that come into use after binding.
 */
public class UidMeterBinder implements MeterBinder {

	private final UidGenerator generator;

	private final @Nullable SegmentUidGenerators segmentGenerators;

	private final UidClock clock;

	public UidMeterBinder(UidGenerator generator) {
		this(generator, null);
	}

	/**
	 * Creates a binder for the application's generator and the generators of every segment key.
	 * @param generator the {@code UidGenerator} bean
	 * @param segmentGenerators the generators of segment keys, or {@code null} without the segment generator
	 */
	public UidMeterBinder(UidGenerator generator, @Nullable SegmentUidGenerators segmentGenerators) {
		this(generator, segmentGenerators, UidClock.SYSTEM);
	}

	/**
	 * Creates a binder that reads the layout's remaining time from a clock of its own.
	 * @param generator the {@code UidGenerator} bean
	 * @param segmentGenerators the generators of segment keys, or {@code null} without the segment generator
	 * @param clock the clock the layout's expiry is compared with
	 */
	public UidMeterBinder(UidGenerator generator, @Nullable SegmentUidGenerators segmentGenerators, UidClock clock) {
		this.generator = generator;
		this.segmentGenerators = segmentGenerators;
		this.clock = clock;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		if (this.generator instanceof StartingUidGenerator starting) {
			// Which meters there are follows from the started generator (its worker, its ring): bound once it has
			// started, without holding up the context's start meanwhile.
			starting.whenStarted((started) -> {
				bind(registry, this.generator);
				bindCapacity(registry, this.generator, this.clock);
			});
		}
		else {
			bind(registry, this.generator);
			bindCapacity(registry, this.generator, this.clock);
		}
		if (this.segmentGenerators != null) {
			// The UidGenerator bean is usually one of these; it has its meters already.
			this.segmentGenerators.whenCreated((keyGenerator) -> {
				if (keyGenerator != this.generator) {
					bind(registry, keyGenerator);
				}
			});
		}
	}

	/** What runs out: the layout's time, the worker-ID space, the sequence of a unit. */
	private static void bindCapacity(MeterRegistry registry, UidGenerator source, UidClock clock) {
		UidGeneratorStatus status = source.status();
		if (status.issued() < 0) {
			// An application's own generator: what its status says of itself is too little to watch.
			return;
		}
		Tags tags = Tags.of("generator", status.kind());
		UidLayout layout = status.layout();
		if (layout != null) {
			TimeGauge.builder("uid.layout.remaining", source, TimeUnit.MILLISECONDS,
					(g) -> Math.max(0, layout.getExpiry().toEpochMilli() - clock.currentTimeMillis()))
				.description("How long until the ID layout's expiry, the first instant it cannot encode")
				.tags(tags)
				.register(registry);
		}
		if (status.worker() != null && layout != null) {
			Gauge.builder("uid.worker.id", source, (g) -> g.status().worker().id())
				.description("The worker ID the generator issues as (within its data center)")
				.tags(tags)
				.register(registry);
			Gauge.builder("uid.worker.id.space", layout, (l) -> l.getMaxWorkerId() + 1)
				.description("Worker IDs the layout has, in each data center")
				.tags(tags)
				.register(registry);
			Gauge.builder("uid.worker.lease.lost", source, (g) -> g.status().worker().leaseLost() ? 1 : 0)
				.description("1 while the worker ID's lease is lost and the generator has not claimed one again")
				.tags(tags)
				.register(registry);
			TimeGauge.builder("uid.worker.store.silent", source, TimeUnit.MILLISECONDS,
					(g) -> g.status().worker().storeSilent().toMillis())
				.description("How long the worker store has not answered renewals; 0 while it answers")
				.tags(tags)
				.register(registry);
			TimeGauge.builder("uid.worker.issue.remaining", source, TimeUnit.MILLISECONDS,
					(g) -> issueRemainingMillis(g, clock))
				.description("How long the generator could go on issuing if its worker store answered nothing from "
						+ "now on: to its high-water mark, or on its lease to the lease's end less the clock skew")
				.tags(tags)
				.register(registry);
		}
		if (status.exhaustedUnits() >= 0 && layout != null) {
			double unitSeconds = layout.getTimeUnit().toMillis() / 1000.0;
			Monotonic<UidGenerator> units = new Monotonic<>((g) -> g.status().exhaustedUnits());
			FunctionCounter.builder("uid.sequence.exhausted", source, (g) -> units.applyAsDouble(g) * unitSeconds)
				.description("Time in time units whose sequence ran out, so that issue waited for the next unit")
				.baseUnit("seconds")
				.tags(tags)
				.register(registry);
		}
	}

	/** Time from now to the end of what the generator may issue without its store; 0 once nothing may be issued. */
	private static double issueRemainingMillis(UidGenerator generator, UidClock clock) {
		Instant until = generator.status().worker().issuableUntil();
		return (until != null) ? Math.max(0, until.toEpochMilli() - clock.currentTimeMillis()) : 0;
	}

	private static void bind(MeterRegistry registry, UidGenerator source) {
		UidGeneratorStatus status = source.status();
		Tags tags = Tags.of("generator", status.kind());
		if (status.segment() != null) {
			tags = tags.and("key", status.segment().key());
		}
		if (status.issued() >= 0) {
			Gauge.builder("uid.unavailable", source, (g) -> g.status().isHealthy() ? 0 : 1)
				.description("1 while the generator refuses to issue IDs, 0 while it issues")
				.tags(tags)
				.register(registry);
			counter(registry, "uid.ids.issued", "IDs handed out", tags, source, (g) -> g.status().issued());
		}
		if (status.worker() != null) {
			counter(registry, "uid.clock.backwards", "Times the clock was seen going backwards", tags, source,
					(g) -> g.status().clockBackwards());
			counter(registry, "uid.mark.failures", "Times recording the high-water mark failed, or a call went unanswered for a renewal interval, and was retried", tags,
					source, (g) -> g.status().worker().markFailures());
			counter(registry, "uid.worker.switches", "Times the generator moved to another worker ID as the clock "
					+ "stepped back", tags, source, (g) -> g.status().worker().switches());
			counter(registry, "uid.worker.recoveries", "Times the generator claimed a worker ID again by itself after "
					+ "a lost lease and issued again", tags, source, (g) -> g.status().worker().recoveries());
		}
		if (status.aheadOfClock() != null) {
			TimeGauge.builder("uid.clock.ahead", source, TimeUnit.MILLISECONDS, UidMeterBinder::aheadOfClockMillis)
				.description("How far the latest issued or produced ID lies ahead of the clock")
				.tags(tags)
				.register(registry);
		}
		if (status.ring() != null) {
			Gauge.builder("uid.ring.size", source, (g) -> ring(g).size())
				.description("IDs waiting in the ring buffer")
				.tags(tags)
				.register(registry);
			Gauge.builder("uid.ring.capacity", source, (g) -> ring(g).capacity())
				.description("Slots of the ring buffer")
				.tags(tags)
				.register(registry);
			counter(registry, "uid.ring.put.rejections", "Puts that found the ring buffer full", tags, source,
					(g) -> ring(g).putRejections());
			counter(registry, "uid.ring.take.rejections", "Takes that found the ring buffer empty", tags, source,
					(g) -> ring(g).takeRejections());
			counter(registry, "uid.ring.fill.errors", "Ring buffer fills that failed and were retried", tags, source,
					(g) -> ring(g).fillErrors());
		}
		if (status.segment() != null) {
			counter(registry, "uid.segment.fetched", "Segments claimed from the store", tags, source,
					(g) -> segment(g).segmentsFetched());
			Gauge.builder("uid.segment.step", source, (g) -> segment(g).step())
				.description("Numbers the next segment claims")
				.tags(tags)
				.register(registry);
			Gauge.builder("uid.segment.remaining", source, (g) -> segment(g).remaining())
				.description("Claimed numbers left in memory, in the current and the prefetched segment")
				.tags(tags)
				.register(registry);
			counter(registry, "uid.segment.store.failures", "Claims from the segment store that failed", tags, source,
					(g) -> segment(g).storeFailures());
		}
	}

	/** The segments' state now; a generator that reported segments at bind time keeps reporting them. */
	private static UidGeneratorStatus.Segment segment(UidGenerator generator) {
		UidGeneratorStatus.Segment segment = generator.status().segment();
		return (segment != null) ? segment : new UidGeneratorStatus.Segment("", 0, 0, 0, 0);
	}

	private static double aheadOfClockMillis(UidGenerator generator) {
		Duration ahead = generator.status().aheadOfClock();
		return (ahead != null) ? ahead.toMillis() : 0;
	}

	/** The ring's state now; a generator that reported a ring at bind time keeps reporting one. */
	private static UidGeneratorStatus.Ring ring(UidGenerator generator) {
		UidGeneratorStatus.Ring ring = generator.status().ring();
		return (ring != null) ? ring : new UidGeneratorStatus.Ring(0, 0, 0, 0, 0);
	}

	private static <T> void counter(MeterRegistry registry, String name, String description, Tags tags, T source,
			ToLongFunction<T> count) {
		FunctionCounter.builder(name, source, new Monotonic<>(count))
			.description(description)
			.tags(tags)
			.register(registry);
	}

	/**
	 * Never lets a counter go down: some counts are read without a lock from two fields and can dip for an instant,
	 * which a monitoring system would take for a restart.
	 */
	private static final class Monotonic<T> implements ToDoubleFunction<T> {

		private final ToLongFunction<T> count;

		private final AtomicLong highest = new AtomicLong();

		Monotonic(ToLongFunction<T> count) {
			this.count = count;
		}

		@Override
		public double applyAsDouble(T source) {
			return this.highest.accumulateAndGet(this.count.applyAsLong(source), Math::max);
		}

	}

}
