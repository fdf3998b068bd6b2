package io.github.uidgen.autoconfigure.text;

import io.github.uidgen.UidException;

/**
 * Thrown at start-up when a {@code uid.text.*} setting cannot be used: names the property and what to change, and
 * never the value, which for a key of the opaque form is a secret. Spring Boot's own
 * {@code InvalidConfigurationPropertyValueException} is not used for keys because its failure analysis looks the
 * property up in the environment and prints its value.
 */
public class UidTextPropertyException extends UidException {

	private static final long serialVersionUID = 1L;

	private final String property;

	private final String problem;

	private final String action;

	/**
	 * Creates the exception.
	 * @param property the property at fault, for example {@code uid.text.opaque.key}
	 * @param problem what is wrong, without the value
	 * @param action what to change
	 */
	public UidTextPropertyException(String property, String problem, String action) {
		super(property + ": " + problem + ". " + action);
		this.property = property;
		this.problem = problem;
		this.action = action;
	}

	public String getProperty() {
		return this.property;
	}

	public String getProblem() {
		return this.problem;
	}

	public String getAction() {
		return this.action;
	}

}
