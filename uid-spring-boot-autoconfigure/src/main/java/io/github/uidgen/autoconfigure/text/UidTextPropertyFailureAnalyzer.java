package io.github.uidgen.autoconfigure.text;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a {@link UidTextPropertyException}: the property and the problem, never the value.
 */
class UidTextPropertyFailureAnalyzer extends AbstractFailureAnalyzer<UidTextPropertyException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, UidTextPropertyException cause) {
		return new FailureAnalysis(cause.getProblem() + "\n\n    Property: " + cause.getProperty()
				+ "\n    Value: (not shown: keys are secret)", cause.getAction(), cause);
	}

}
