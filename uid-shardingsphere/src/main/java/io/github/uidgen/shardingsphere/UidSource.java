package io.github.uidgen.shardingsphere;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.segment.SegmentUidGenerators;

/**
 * What one application gives the algorithms of its ShardingSphere data sources: its generator, its segment
 * generators, and a name for messages. Closed when the application stops, so an algorithm bound to it refuses to
 * work rather than use a closed generator, and another application may bind it.
 */
final class UidSource {

	private final String name;

	private final UidGenerator uidGenerator;

	private final SegmentUidGenerators segmentGenerators;

	private volatile boolean closed;

	UidSource(String name, UidGenerator uidGenerator, SegmentUidGenerators segmentGenerators) {
		this.name = name;
		this.uidGenerator = uidGenerator;
		this.segmentGenerators = segmentGenerators;
	}

	String name() {
		return this.name;
	}

	UidGenerator uidGenerator() {
		return this.uidGenerator;
	}

	SegmentUidGenerators segmentGenerators() {
		return this.segmentGenerators;
	}

	boolean isClosed() {
		return this.closed;
	}

	void close() {
		this.closed = true;
	}

}
