package io.github.uidgen.autoconfigure;

import io.github.uidgen.UidGenerator;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;

/**
 * Closes the generator while the application context stops, before the connections it releases its worker ID
 * through are gone: Redis connection factories stop as lifecycle beans (phase 0), ahead of the destruction of
 * singletons, where a destroy method would come too late. The phase lies below the web server's, so requests
 * still in flight during a graceful shutdown get their IDs.
 *
 * <p>The auto-configured generator claims its worker ID beside the rest of the context's start
 * ({@link StartingUidGenerator}); {@link UidGeneratorStartWait} waits for the claim at the end of the start.
 *
 * <p>A context stopped this way cannot be started again with the same generator; closing releases the worker ID.
 * The generator's destroy method stays in place for contexts that never started.
 */
final class UidGeneratorLifecycle implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(UidGeneratorLifecycle.class);

	/** Above the phase of the Redis connection factories, below everything likely to still need IDs. */
	static final int PHASE = 1024;

	private final ObjectProvider<UidGenerator> generator;

	private volatile boolean running;

	UidGeneratorLifecycle(ObjectProvider<UidGenerator> generator) {
		this.generator = generator;
	}

	@Override
	public void start() {
		this.running = true;
	}

	@Override
	public void stop() {
		this.running = false;
		this.generator.ifAvailable((uidGenerator) -> {
			if (uidGenerator instanceof AutoCloseable closeable) {
				close(closeable);
			}
		});
	}

	private static void close(AutoCloseable closeable) {
		try {
			closeable.close();
		}
		catch (Exception ex) {
			logger.warn("Closing the uid generator failed", ex);
		}
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
