package io.github.uidgen.autoconfigure;

import java.util.Locale;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.core.env.Environment;

/**
 * Base of the uid failure analyzers: every description names the property at fault and its value in one shape.
 *
 * @param <T> the exception analyzed
 */
abstract class UidFailureAnalyzer<T extends Throwable> extends AbstractFailureAnalyzer<T> {

	/**
	 * Writes a description: the problem, then the property and its value.
	 * @param problem what is wrong, one or more sentences
	 * @param property the property or properties at fault
	 * @param value the value as set, or {@code null} when it is not set
	 * @return the description
	 */
	static String describe(String problem, String property, String value) {
		return problem + "\n\n    Property: " + property + "\n    Value: " + ((value != null) ? value : "(not set)");
	}

	/**
	 * Returns the worker-ID assigner chosen in the environment, as written in the docs.
	 * @param environment the environment, may be {@code null}
	 * @return {@code static}, {@code db}, {@code redis}, another value as set, or {@code null} when not set
	 */
	static String assigner(Environment environment) {
		if (environment == null) {
			return null;
		}
		String assigner = environment.getProperty("uid.worker.assigner");
		if (assigner != null && !assigner.isBlank()) {
			return assigner.strip().toLowerCase(Locale.ROOT);
		}
		return (environment.getProperty("uid.worker.id") != null
				|| environment.getProperty("uid.worker.static.ordinal-from") != null) ? "static" : null;
	}

}
