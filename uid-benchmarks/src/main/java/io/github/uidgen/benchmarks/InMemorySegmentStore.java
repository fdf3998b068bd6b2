package io.github.uidgen.benchmarks;

import java.util.concurrent.atomic.AtomicLong;

import io.github.uidgen.segment.SegmentRange;
import io.github.uidgen.segment.SegmentStore;

/**
 * A segment store in memory, one counter advanced by {@code addAndGet}: the same as CosId's
 * {@code IdSegmentDistributor.Atomic}, so the segment generators are compared without a store round trip. Never
 * for production: it starts again at 1 in every JVM.
 */
final class InMemorySegmentStore implements SegmentStore {

	private final AtomicLong maxId = new AtomicLong();

	@Override
	public SegmentRange claim(String key, long size) {
		long last = this.maxId.addAndGet(size);
		return new SegmentRange(last - size + 1, last);
	}

	@Override
	public String name() {
		return "memory";
	}

}
