package io.github.uidgen.worker;

import java.nio.file.Path;

/**
 * Thrown when the static assigner's state file cannot be read, parsed, written or locked; the message names the
 * file and the fix.
 */
public class StateFileException extends WorkerAssignmentException {

	private static final long serialVersionUID = 1L;

	private final transient Path path;

	public StateFileException(Path path, String message, Throwable cause) {
		super(message, cause);
		this.path = path;
	}

	/**
	 * Returns the state file concerned.
	 * @return the path
	 */
	public Path getPath() {
		return this.path;
	}

}
