package io.github.uidgen.autoconfigure;

import io.github.uidgen.segment.SegmentUidGenerators;
import org.springframework.context.SmartLifecycle;

/**
 * Closes the segment generators while the application context stops, in the same phase as
 * {@link UidGeneratorLifecycle}: after the web server's graceful shutdown, before the Redis connection factories
 * stop, so no background claim runs into a store that is shutting down. Their destroy method stays in place for
 * contexts that never started.
 */
final class SegmentUidGeneratorsLifecycle implements SmartLifecycle {

	private final SegmentUidGenerators generators;

	private volatile boolean running;

	SegmentUidGeneratorsLifecycle(SegmentUidGenerators generators) {
		this.generators = generators;
	}

	@Override
	public void start() {
		this.running = true;
	}

	@Override
	public void stop() {
		this.running = false;
		this.generators.close();
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return UidGeneratorLifecycle.PHASE;
	}

}
