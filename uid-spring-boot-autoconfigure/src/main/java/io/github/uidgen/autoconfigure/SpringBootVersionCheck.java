package io.github.uidgen.autoconfigure;

import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.Ordered;
import org.springframework.util.ClassUtils;

/**
 * Stops an application on a Spring Boot version uid does not support before its context loads uid's
 * auto-configurations, which would otherwise fail with a bare {@code ClassNotFoundException} on a Spring Boot 4
 * class.
 *
 * <p>Registered in {@code META-INF/spring.factories} under {@code org.springframework.context.ApplicationListener},
 * a key that Spring Boot 3 and 4 both read; this class uses only types both have.
 */
class SpringBootVersionCheck implements ApplicationListener<ApplicationPreparedEvent>, Ordered {

	/** The oldest Spring Boot release uid runs on: built against 4.1, also tested on 4.0 (uid-boot40-check). */
	static final String MINIMUM_VERSION = "4.0.0";

	/** Present from Spring Boot 4.0 on: the version check's fallback when the jar carries no version. */
	private static final String SPRING_BOOT_4_CLASS = "org.springframework.boot.EnvironmentPostProcessor";

	@Override
	public void onApplicationEvent(ApplicationPreparedEvent event) {
		String version = SpringBootVersion.getVersion();
		ClassLoader classLoader = event.getSpringApplication().getClassLoader();
		if (!isSupported(version, ClassUtils.isPresent(SPRING_BOOT_4_CLASS, classLoader))) {
			throw new UnsupportedSpringBootVersionException(version);
		}
	}

	/**
	 * Tells whether uid runs on this Spring Boot version.
	 * @param version the version, {@code null} when unknown
	 * @param springBoot4 whether the classes of Spring Boot 4 are present
	 * @return whether it is {@link #MINIMUM_VERSION} or later; with no version, whether it is Spring Boot 4
	 */
	static boolean isSupported(String version, boolean springBoot4) {
		if (version == null) {
			return springBoot4;
		}
		int[] actual = majorMinor(version);
		int[] minimum = majorMinor(MINIMUM_VERSION);
		return (actual[0] != minimum[0]) ? actual[0] > minimum[0] : actual[1] >= minimum[1];
	}

	private static int[] majorMinor(String version) {
		String[] parts = version.split("[.\\-]");
		return new int[] { leadingNumber(parts[0]), (parts.length > 1) ? leadingNumber(parts[1]) : 0 };
	}

	private static int leadingNumber(String part) {
		int end = 0;
		while (end < part.length() && Character.isDigit(part.charAt(end))) {
			end++;
		}
		return (end > 0) ? Integer.parseInt(part.substring(0, end)) : 0;
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
