package io.github.uidgen.autoconfigure;

import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a {@link UidPropertyException}: a {@code uid.*} property missing or unusable as set.
 */
class UidPropertyFailureAnalyzer extends UidFailureAnalyzer<UidPropertyException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, UidPropertyException cause) {
		return new FailureAnalysis(describe(cause.getProblem(), cause.getProperty(), cause.getValue()),
				cause.getAction(), cause);
	}

}
