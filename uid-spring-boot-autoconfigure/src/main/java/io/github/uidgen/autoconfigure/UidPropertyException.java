package io.github.uidgen.autoconfigure;

import io.github.uidgen.UidException;

/**
 * Thrown at start-up when a {@code uid.*} property is missing or cannot be used as set; names the property, its
 * value and what to change, for {@link UidPropertyFailureAnalyzer}.
 */
class UidPropertyException extends UidException {

	private static final long serialVersionUID = 1L;

	private final String property;

	private final String value;

	private final String problem;

	private final String action;

	/**
	 * Creates an exception.
	 * @param property the property at fault, for example {@code uid.worker.id}
	 * @param value its value as set, or {@code null} when it is not set
	 * @param problem what is wrong
	 * @param action what to change
	 */
	UidPropertyException(String property, Object value, String problem, String action) {
		this(property, value, problem, action, null);
	}

	/**
	 * Creates an exception for a value a core builder refused.
	 * @param property the property at fault, for example {@code uid.cached.boost-power}
	 * @param value its value as set, or {@code null} when it is not set
	 * @param problem what is wrong
	 * @param action what to change
	 * @param cause the core builder's refusal, or {@code null}
	 */
	UidPropertyException(String property, Object value, String problem, String action, Throwable cause) {
		super(problem + " " + action, cause);
		this.property = property;
		this.value = (value != null) ? String.valueOf(value) : null;
		this.problem = problem;
		this.action = action;
	}

	public String getProperty() {
		return this.property;
	}

	/**
	 * Returns the value as set.
	 * @return the value, or {@code null} when the property is not set
	 */
	public String getValue() {
		return this.value;
	}

	public String getProblem() {
		return this.problem;
	}

	public String getAction() {
		return this.action;
	}

}
