package io.github.uidgen.worker.zookeeper;

import io.github.uidgen.worker.WorkerAssignmentException;

/**
 * Thrown when a Leaf snowflake node cannot be continued: its tree is missing, its data is not Leaf's, its timestamp
 * lies ahead of the clock, its worker ID does not fit, or another process issues with it. The message names the
 * node and the fix; {@link #getSetting()} names the builder setting at fault, if one is.
 */
public class LeafNodeException extends WorkerAssignmentException {

	private static final long serialVersionUID = 1L;

	private final String path;

	private final String setting;

	private final transient Object value;

	public LeafNodeException(String path, String setting, Object value, String message, Throwable cause) {
		super(message, cause);
		this.path = path;
		this.setting = setting;
		this.value = value;
	}

	/**
	 * Returns the ZooKeeper path concerned.
	 * @return the node or tree path
	 */
	public String getPath() {
		return this.path;
	}

	/**
	 * Returns the builder setting whose value led to the node: {@code leafName}, {@code ip} or {@code port}; or the
	 * generator's {@code maxStartupWait} when the node's timestamp lies further ahead of the clock than a start waits
	 * (its value is then that wait: {@code maxStartupWait} plus the cached generator's {@code maxAhead}).
	 * @return the setting, or {@code null} when the node itself is at fault
	 */
	public String getSetting() {
		return this.setting;
	}

	/**
	 * Returns the value of {@link #getSetting()}.
	 * @return the value, or {@code null}
	 */
	public Object getValue() {
		return this.value;
	}

}
