package io.github.uidgen.shardingsphere;

/**
 * The source one algorithm instance is bound to. ShardingSphere's driver keeps one data source per JDBC URL for the
 * whole JVM, so two applications in one JVM with the same URL would share the algorithm instances: the second
 * bind is refused while the first application runs, instead of one application issuing or routing with the
 * other's generator.
 */
final class BindingSlot {

	private final String type;

	private volatile UidSource source;

	private volatile String name;

	BindingSlot(String type) {
		this.type = type;
	}

	synchronized void bind(UidSource source, String name) {
		UidSource current = this.source;
		if (current != null && current != source && !current.isClosed()) {
			throw new IllegalStateException("The ShardingSphere algorithm '" + name + "' (type " + this.type
					+ ") is already bound to " + current.name() + ", which is still running, so " + source.name()
					+ " cannot use it. ShardingSphere's driver keeps one data source per JDBC URL for the whole JVM: "
					+ "give each application its own URL (its own YAML file, or another query parameter such as "
					+ "?placeholder-type=none on one of them).");
		}
		this.source = source;
		this.name = name;
	}

	synchronized void unbind(UidSource source) {
		if (this.source == source) {
			this.source = null;
		}
	}

	/**
	 * Returns the live source, or explains why there is none.
	 * @param use what the algorithm was asked to do, for the message
	 * @param on what it was asked to do it on, for the message
	 * @return the source
	 */
	UidSource require(String use, String on) {
		UidSource current = this.source;
		if (current == null || current.isClosed()) {
			throw unavailable(current, use + on);
		}
		return current;
	}

	private IllegalStateException unavailable(UidSource current, String use) {
		if (current == null) {
			return new IllegalStateException("The ShardingSphere algorithm of type " + this.type + " cannot " + use
					+ ": it is not bound to a UidGenerator. ShardingSphere creates it, so the application binds it: "
					+ "with Spring Boot, uid-shardingsphere does so when the application context starts, for every "
					+ "DataSource bean that is a ShardingSphere data source (is yours a bean of the context, and is "
					+ "this before the context has started?); without Spring, call UidShardingSphere.bind(dataSource, "
					+ "uidGenerator, segmentGenerators or null, applicationName).");
		}
		return new IllegalStateException("The ShardingSphere algorithm '" + this.name + "' (type " + this.type
				+ ") cannot " + use + ": " + current.name() + ", whose UidGenerator it was bound to, has stopped.");
	}

	String name() {
		String current = this.name;
		return (current != null) ? "'" + current + "' (type " + this.type + ")" : "of type " + this.type;
	}

}
