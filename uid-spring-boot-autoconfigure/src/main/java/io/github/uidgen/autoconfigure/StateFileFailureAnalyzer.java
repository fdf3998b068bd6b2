package io.github.uidgen.autoconfigure;

import io.github.uidgen.worker.StateFileException;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a static worker-ID assigner whose state file cannot be read, written or locked.
 */
class StateFileFailureAnalyzer extends UidFailureAnalyzer<StateFileException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, StateFileException cause) {
		String path = (cause.getPath() != null) ? cause.getPath().toString() : null;
		String description = describe(cause.getMessage(), "uid.worker.static.state-file", path);
		String action = "Point uid.worker.static.state-file at a writable file that this instance alone uses (one "
				+ "per worker ID and process), or fix the file as described above.";
		return new FailureAnalysis(description, action, cause);
	}

}
