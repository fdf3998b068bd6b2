package io.github.uidgen.autoconfigure;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.util.ClassUtils;

/**
 * Refuses {@code uid.jackson.write-longs-as-strings=true} in an application without uid-jackson (an optional
 * dependency) or without Jackson 3: nothing would write longs as strings, and JavaScript clients would go on losing
 * the last digits of IDs that the setting was meant to protect. A value that is not a boolean is refused by the
 * binding, as it is with uid-jackson.
 */
final class JacksonSwitchCheck {

	static final String WRITE_LONGS_AS_STRINGS = "uid.jackson.write-longs-as-strings";

	private static final String MODULE = "io.github.uidgen.jackson.UidJacksonModule";

	private static final String JSON_MAPPER = "tools.jackson.databind.json.JsonMapper";

	private JacksonSwitchCheck() {
	}

	/**
	 * Checks the switch against the class path.
	 * @param binder the binder of the application's environment
	 * @param classLoader the application's class loader
	 * @throws UidPropertyException naming the switch when it is on and nothing can act on it
	 */
	static void check(Binder binder, ClassLoader classLoader) {
		if (!binder.bind(WRITE_LONGS_AS_STRINGS, Boolean.class).orElse(false)) {
			return;
		}
		String missing = !ClassUtils.isPresent(MODULE, classLoader) ? "uid-jackson is not on the class path"
				: !ClassUtils.isPresent(JSON_MAPPER, classLoader) ? "Jackson 3 (tools.jackson.core:jackson-databind) "
						+ "is not on the class path" : null;
		if (missing != null) {
			throw new UidPropertyException(WRITE_LONGS_AS_STRINGS, true, WRITE_LONGS_AS_STRINGS + " is true, but "
					+ missing + ", so nothing writes longs as JSON strings: IDs above 2^53 would still reach "
					+ "JavaScript clients as numbers that lose their last digits.",
					"Add the dependency io.github.uidgen:uid-jackson (its version comes from uid-bom) to an "
							+ "application that writes JSON with Jackson 3, or remove " + WRITE_LONGS_AS_STRINGS + ".");
		}
	}

}
