package io.github.uidgen.autoconfigure;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.segment.SegmentUidGenerator;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;

/**
 * The last step of the context's start: waits for the worker ID that the auto-configured generator claims in the
 * background ({@link StartingUidGenerator}), or for the first segment of the auto-configured segment generator
 * ({@link SegmentUidGenerator#awaitFirstSegment()}, see {@link SegmentUidGeneratorConfiguration}), so that the
 * context's refresh, and with it the application's readiness ({@code ApplicationReadyEvent}, the readiness probe),
 * ends only with a generator that issues, and a start that cannot claim fails with what the claim threw.
 *
 * <p>Its phase lies above the web server's start ({@code 2147481599}) and graceful shutdown ({@code 2147482623}), so
 * the web server and the management context start while the claim (a Redis claim's probation, say) is still under
 * way; a request that reaches them meanwhile waits for the generator. Lifecycle beans that start later, such as
 * message listener containers, find it started.
 */
final class UidGeneratorStartWait implements SmartLifecycle {

	/** After the web server's start and graceful-shutdown phases. */
	static final int PHASE = Integer.MAX_VALUE - 512;

	private final ObjectProvider<UidGenerator> generator;

	private volatile boolean running;

	UidGeneratorStartWait(ObjectProvider<UidGenerator> generator) {
		this.generator = generator;
	}

	@Override
	public void start() {
		this.generator.ifAvailable((uidGenerator) -> {
			if (uidGenerator instanceof StartingUidGenerator starting) {
				starting.awaitStarted();
			}
			else if (uidGenerator instanceof SegmentUidGenerator segment) {
				segment.awaitFirstSegment();
			}
		});
		this.running = true;
	}

	/** Nothing to stop: {@link UidGeneratorLifecycle} closes the generator once the web server has stopped. */
	@Override
	public void stop() {
		this.running = false;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

}
