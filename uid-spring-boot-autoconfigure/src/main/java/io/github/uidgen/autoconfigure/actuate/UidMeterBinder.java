package io.github.uidgen.autoconfigure.actuate;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.buffer.RingBuffer;
import io.github.uidgen.impl.AbstractUidGenerator;
import io.github.uidgen.impl.CachedUidGenerator;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Micrometer meters of a uid generator. Every meter reads a counter the generator keeps anyway, when the registry
 * is scraped, so ID issue itself pays nothing for them.
 *
 * <ul>
 * <li>{@code uid.ids.issued} IDs handed out (counter)</li>
 * <li>{@code uid.clock.backwards} times the clock was seen going back (counter)</li>
 * <li>{@code uid.mark.failures} times recording the high-water mark failed and was retried (counter)</li>
 * <li>{@code uid.clock.ahead} how far the latest issued or produced ID lies ahead of the clock (time gauge)</li>
 * <li>{@code uid.ring.size}, {@code uid.ring.capacity} IDs waiting in the cached generator's ring, and its slots
 * (gauges)</li>
 * <li>{@code uid.ring.put.rejections}, {@code uid.ring.take.rejections} puts that found the ring full, takes that
 * found it empty (counters)</li>
 * <li>{@code uid.ring.fill.errors} fills that failed and were retried (counter)</li>
 * </ul>
 * Each meter carries the tag {@code generator} ({@code default} or {@code cached}).
 */
public class UidMeterBinder implements MeterBinder {

	private final UidGenerator generator;

	public UidMeterBinder(UidGenerator generator) {
		this.generator = generator;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		if (!(this.generator instanceof AbstractUidGenerator running)) {
			return;
		}
		Tags tags = Tags.of("generator", running.kind());
		counter(registry, "uid.ids.issued", "IDs handed out", tags, running, AbstractUidGenerator::getIssuedCount);
		counter(registry, "uid.clock.backwards", "Times the clock was seen going backwards", tags, running,
				AbstractUidGenerator::getClockBackwardsCount);
		counter(registry, "uid.mark.failures", "Times recording the high-water mark failed and was retried", tags,
				running, AbstractUidGenerator::getMarkFailureCount);
		TimeGauge.builder("uid.clock.ahead", running, TimeUnit.MILLISECONDS, (g) -> g.getAheadOfClock().toMillis())
			.description("How far the latest issued or produced ID lies ahead of the clock")
			.tags(tags)
			.register(registry);
		if (running instanceof CachedUidGenerator cached) {
			RingBuffer ring = cached.getRingBuffer();
			Gauge.builder("uid.ring.size", ring, RingBuffer::size)
				.description("IDs waiting in the ring buffer")
				.tags(tags)
				.register(registry);
			Gauge.builder("uid.ring.capacity", ring, RingBuffer::capacity)
				.description("Slots of the ring buffer")
				.tags(tags)
				.register(registry);
			counter(registry, "uid.ring.put.rejections", "Puts that found the ring buffer full", tags, ring,
					RingBuffer::putRejections);
			counter(registry, "uid.ring.take.rejections", "Takes that found the ring buffer empty", tags, ring,
					RingBuffer::takeRejections);
			counter(registry, "uid.ring.fill.errors", "Ring buffer fills that failed and were retried", tags, cached,
					CachedUidGenerator::getFillErrorCount);
		}
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
