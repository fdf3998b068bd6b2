package io.github.uidgen.segment;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * One {@link SegmentUidGenerator} per key, all on one store and with the same settings, each created at its first
 * use: order numbers, invoice numbers and ticket numbers as separate dense sequences (Leaf's {@code biz_tag}s) in one
 * table or one Redis.
 *
 * <pre>{@code
 * SegmentUidGenerators generators = new SegmentUidGenerators(SegmentUidGenerator.builder(store).step(2000));
 * long orderNumber = generators.forKey("order").getUID();
 * long invoiceNumber = generators.forKey("invoice").getUID();
 * }</pre>
 *
 * The generators share a few background threads for their claims ({@link SegmentUidGenerator.Builder#prefetchThreads
 * (int)}, two by default), however many keys come into use; a key costs memory (well under a kilobyte while idle),
 * not a thread. The first claims of different keys run side by side, each on the thread that first asks for its
 * key ({@link #forKey(String)}), or on the background threads ({@link #startKey(String)}). Closing it closes every
 * generator it created and stops the threads.
 */
public final class SegmentUidGenerators implements AutoCloseable {

	private final SegmentSettings settings;

	private final Map<String, SegmentUidGenerator> generators = new ConcurrentHashMap<>();

	/** Keys whose first segment is being claimed, and the generator they will get; for callers that ask meanwhile. */
	private final Map<String, CompletableFuture<SegmentUidGenerator>> creating = new ConcurrentHashMap<>();

	private final SegmentPrefetcher prefetcher;

	/** One step policy for all the keys: it holds no state of a key. */
	private final AdaptiveStep stepPolicy;

	/** Guarded by {@code generators}: read and extended only while holding its lock. */
	private final List<Consumer<? super SegmentUidGenerator>> creationListeners = new ArrayList<>();

	private volatile boolean closed;

	/**
	 * Creates an empty set of generators.
	 * @param settings the store and the settings every generator gets; its key is ignored
	 * @throws io.github.uidgen.InvalidSettingException when the settings do not fit together
	 */
	public SegmentUidGenerators(SegmentUidGenerator.Builder settings) {
		settings.settings().validate();
		this.settings = settings.settings().copy();
		this.prefetcher = this.settings.sharedPrefetcher();
		this.stepPolicy = this.settings.stepPolicy();
	}

	/**
	 * Returns the generator of a key, claiming its first segment when this is the key's first use.
	 * @param key 1 to 128 letters, digits, {@code _}, {@code -}, {@code .} or {@code :}
	 * @return the generator
	 * @throws io.github.uidgen.InvalidSettingException for an invalid key
	 * @throws SegmentStoreException when the key's first segment cannot be claimed
	 * @throws SegmentUnavailableException once closed
	 */
	public SegmentUidGenerator forKey(String key) {
		return obtain(key, false);
	}

	/**
	 * Returns the generator of a key at once; when this is the key's first use, its first segment is claimed on a
	 * background thread, beside whatever the caller goes on with (an application's start, say), instead of on the
	 * calling thread. {@link SegmentUidGenerator#awaitFirstSegment()} waits for it and throws what the claim threw;
	 * a {@link SegmentUidGenerator#getUID()} meanwhile waits for it, at most the wait timeout. A key in use already
	 * is returned as it is, and a later {@link #forKey(String)} of the key returns the same generator.
	 *
	 * <p>A first claim that cannot reach the store ({@link SegmentStoreUnavailableException}) is tried again, each
	 * try logged, for {@link SegmentUidGenerator.Builder#storeWaitAtStart(java.time.Duration) storeWaitAtStart} (0
	 * unless set); any other failure, and the last once the wait is over, {@code awaitFirstSegment()} throws at once,
	 * as a claim on the calling thread would (the generator itself goes on retrying in the background, as it does
	 * during any outage, until it is closed or no longer used).
	 * @param key 1 to 128 letters, digits, {@code _}, {@code -}, {@code .} or {@code :}
	 * @return the generator
	 * @throws io.github.uidgen.InvalidSettingException for an invalid key
	 * @throws SegmentStoreException when another caller's synchronous creation of the key failed meanwhile
	 * @throws SegmentUnavailableException once closed
	 */
	public SegmentUidGenerator startKey(String key) {
		return obtain(key, true);
	}

	private SegmentUidGenerator obtain(String key, boolean inBackground) {
		if (this.closed) {
			throw closedException(key);
		}
		SegmentUidGenerator generator = this.generators.get(key);
		if (generator != null) {
			return generator;
		}
		SegmentSettings.requireKey(key);
		CompletableFuture<SegmentUidGenerator> mine = new CompletableFuture<>();
		CompletableFuture<SegmentUidGenerator> theirs = this.creating.putIfAbsent(key, mine);
		if (theirs != null) {
			return awaitCreation(theirs);
		}
		try {
			// Published before its creation entry is removed, so a caller that won the entry after that finds it.
			SegmentUidGenerator existing = this.generators.get(key);
			SegmentUidGenerator created = (existing != null) ? existing : create(key, inBackground);
			mine.complete(created);
			return created;
		}
		catch (RuntimeException | Error ex) {
			mine.completeExceptionally(ex);
			throw ex;
		}
		finally {
			this.creating.remove(key, mine);
		}
	}

	/**
	 * Claims the first segment of a new key outside any lock (or asks the background threads for it), then publishes
	 * the generator to the listeners.
	 */
	private SegmentUidGenerator create(String key, boolean inBackground) {
		SegmentUidGenerator created = inBackground
				? SegmentUidGenerator.startInBackground(this.settings.forKey(key), this.prefetcher, this.stepPolicy)
				: SegmentUidGenerator.start(this.settings.forKey(key), this.prefetcher, this.stepPolicy);
		synchronized (this.generators) {
			if (!this.closed) {
				this.generators.put(key, created);
				this.creationListeners.forEach((listener) -> listener.accept(created));
				return created;
			}
		}
		created.close();
		throw closedException(key);
	}

	/** Waits for another caller's creation of a key, and fails as it did. */
	private static SegmentUidGenerator awaitCreation(CompletableFuture<SegmentUidGenerator> creation) {
		try {
			return creation.join();
		}
		catch (CompletionException ex) {
			if (ex.getCause() instanceof RuntimeException failure) {
				throw failure;
			}
			if (ex.getCause() instanceof Error error) {
				throw error;
			}
			throw ex;
		}
	}

	/**
	 * Runs an action for every generator created so far and for every one created later, each exactly once, so
	 * that meters or other views can follow keys that come into use while the application runs. The action runs
	 * on the thread that creates the generator, under the lock that creation holds: it must be quick and must not
	 * call {@link #forKey(String)}.
	 * @param action what to do with each generator
	 */
	public void whenCreated(Consumer<? super SegmentUidGenerator> action) {
		synchronized (this.generators) {
			this.generators.values().forEach(action);
			this.creationListeners.add(action);
		}
	}

	private static SegmentUnavailableException closedException(String key) {
		return new SegmentUnavailableException("The segment generators are closed; no generator for key '" + key
				+ "'");
	}

	/**
	 * Returns the generators created so far, by key.
	 * @return an unmodifiable view
	 */
	public Map<String, SegmentUidGenerator> generators() {
		return Collections.unmodifiableMap(this.generators);
	}

	/**
	 * Closes every generator created so far and stops the background threads; {@link #forKey(String)} fails
	 * afterwards.
	 */
	@Override
	public void close() {
		synchronized (this.generators) {
			this.closed = true;
		}
		this.generators.values().forEach((generator) -> generator.close(false));
		this.prefetcher.close();
	}

}
