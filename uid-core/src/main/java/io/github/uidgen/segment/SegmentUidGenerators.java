package io.github.uidgen.segment;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
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
 * Closing it closes every generator it created.
 */
public final class SegmentUidGenerators implements AutoCloseable {

	private final SegmentUidGenerator.Builder settings;

	private final Map<String, SegmentUidGenerator> generators = new ConcurrentHashMap<>();

	/** Guarded by {@code generators}: read and extended only while holding its lock. */
	private final List<Consumer<? super SegmentUidGenerator>> creationListeners = new ArrayList<>();

	private volatile boolean closed;

	/**
	 * Creates an empty set of generators.
	 * @param settings the store and the settings every generator gets; its key is ignored
	 * @throws io.github.uidgen.InvalidSettingException when the settings do not fit together
	 */
	public SegmentUidGenerators(SegmentUidGenerator.Builder settings) {
		settings.validate();
		this.settings = settings.copy();
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
		if (this.closed) {
			throw closedException(key);
		}
		SegmentUidGenerator generator = this.generators.get(key);
		if (generator != null) {
			return generator;
		}
		SegmentUidGenerator.Builder.requireKey(key);
		synchronized (this.generators) {
			if (this.closed) {
				throw closedException(key);
			}
			SegmentUidGenerator existing = this.generators.get(key);
			if (existing != null) {
				return existing;
			}
			SegmentUidGenerator created = this.settings.copy().key(key).build();
			this.generators.put(key, created);
			this.creationListeners.forEach((listener) -> listener.accept(created));
			return created;
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
	 * Closes every generator created so far; {@link #forKey(String)} fails afterwards.
	 */
	@Override
	public void close() {
		synchronized (this.generators) {
			this.closed = true;
		}
		this.generators.values().forEach(SegmentUidGenerator::close);
	}

}
