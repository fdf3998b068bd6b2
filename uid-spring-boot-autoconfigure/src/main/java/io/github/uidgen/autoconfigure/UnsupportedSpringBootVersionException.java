package io.github.uidgen.autoconfigure;

/**
 * Thrown at start-up when the application runs on a Spring Boot version uid does not support.
 */
public class UnsupportedSpringBootVersionException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	private final String version;

	UnsupportedSpringBootVersionException(String version) {
		super("uid needs Spring Boot " + SpringBootVersionCheck.MINIMUM_VERSION
				+ " or later (Spring Framework 7, Jackson 3, Java 17+), but the application runs on Spring Boot "
				+ ((version != null) ? version : "3.x or older") + ". Upgrade the application to Spring Boot "
				+ SpringBootVersionCheck.MINIMUM_VERSION + " or later, or remove the uid starter.");
		this.version = version;
	}

	/**
	 * Returns the Spring Boot version found.
	 * @return the version, {@code null} when the jar carries none
	 */
	public String getVersion() {
		return this.version;
	}

}
