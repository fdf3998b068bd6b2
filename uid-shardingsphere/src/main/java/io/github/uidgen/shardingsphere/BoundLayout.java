package io.github.uidgen.shardingsphere;

import java.util.function.Consumer;

import io.github.uidgen.UidLayout;

/**
 * The layout of the generator a sharding algorithm is bound to, which {@code UID_MOD} and {@code UID_INTERVAL} read
 * IDs with: set when the application binds the algorithm, refused to a caller while it is not bound.
 */
final class BoundLayout {

	private final BindingSlot slot;

	private final String type;

	private volatile UidLayout layout;

	BoundLayout(String type) {
		this.slot = new BindingSlot(type);
		this.type = type;
	}

	/**
	 * Binds to the source's layout.
	 * @param source what the application gives
	 * @param name the algorithm's name in the YAML, for messages
	 */
	void bind(UidSource source, String name) {
		bind(source, name, (layout) -> {
		});
	}

	/**
	 * Binds to the source's layout once a check of the algorithm's has accepted it.
	 * @param source what the application gives
	 * @param name the algorithm's name in the YAML, for messages
	 * @param check refuses a layout the algorithm cannot work with by throwing
	 */
	void bind(UidSource source, String name, Consumer<UidLayout> check) {
		UidLayout bound = UidIds.layoutOf(source, name, this.type);
		check.accept(bound);
		this.slot.bind(source, name);
		this.layout = bound;
	}

	void unbind(UidSource source) {
		this.slot.unbind(source);
	}

	/**
	 * Returns the layout, or explains why the algorithm cannot route yet.
	 * @return the bound layout
	 */
	UidLayout get() {
		this.slot.require("route IDs", "");
		UidLayout current = this.layout;
		if (current == null) {
			throw new IllegalStateException("The ShardingSphere sharding algorithm " + this.slot.name()
					+ " is being bound; route after the application has started");
		}
		return current;
	}

}
