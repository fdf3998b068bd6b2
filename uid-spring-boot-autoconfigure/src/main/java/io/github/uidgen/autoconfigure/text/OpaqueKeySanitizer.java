package io.github.uidgen.autoconfigure.text;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.springframework.boot.actuate.endpoint.SanitizableData;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;

/**
 * Hides the opaque form's keys in the {@code env} and {@code configprops} endpoints even where they show values
 * ({@code show-values=always}): a key is a secret whatever an endpoint's settings. Spring Boot's sanitizing matches
 * property names, and a key also travels inside other values: the JVM's command line ({@code sun.java.command} holds
 * {@code --uid.text.opaque.key=...}), {@code spring.application.json} and {@code SPRING_APPLICATION_JSON}, an
 * environment variable that passes options ({@code JAVA_TOOL_OPTIONS}). So a value is blanked when its property is a
 * key setting ({@code uid.text.opaque.key}, {@code uid.text.opaque.previous-keys.b}, {@code UID_TEXT_OPAQUE_KEY}),
 * or when it contains the text of any configured key, current or previous, whatever property holds it.
 */
final class OpaqueKeySanitizer implements SanitizingFunction {

	/** Shorter texts are no keys (the start refuses them) and would blank values by chance. */
	private static final int MIN_KEY_TEXT = 16;

	private final List<String> keyTexts;

	/**
	 * Creates the function for the configured keys.
	 * @param keys the key texts as configured, current and previous; blanks and short texts are ignored
	 */
	OpaqueKeySanitizer(Iterable<String> keys) {
		Set<String> texts = new LinkedHashSet<>();
		for (String key : keys) {
			if (key == null) {
				continue;
			}
			String text = key.strip();
			String unpadded = text.replaceAll("=+$", "");
			// As written, without padding, url-safe, and as JSON may escape a slash.
			for (String variant : new String[] { text, unpadded, unpadded.replace('+', '-').replace('/', '_'),
					unpadded.replace("/", "\\/") }) {
				if (variant.length() >= MIN_KEY_TEXT) {
					texts.add(variant);
				}
			}
		}
		this.keyTexts = new ArrayList<>(texts);
	}

	/**
	 * Creates the function for the keys of the opaque form's settings.
	 * @param opaque the settings
	 * @return the function
	 */
	static OpaqueKeySanitizer of(UidTextProperties.Opaque opaque) {
		List<String> keys = new ArrayList<>();
		keys.add(opaque.getKey());
		keys.addAll(opaque.getPreviousKeys().values());
		return new OpaqueKeySanitizer(keys);
	}

	@Override
	public SanitizableData apply(SanitizableData data) {
		return (isKey(data.getKey()) || holdsKey(data.getValue())) ? data.withSanitizedValue() : data;
	}

	private boolean holdsKey(Object value) {
		if (value == null || this.keyTexts.isEmpty()) {
			return false;
		}
		String text = value.toString();
		for (String key : this.keyTexts) {
			if (text.contains(key)) {
				return true;
			}
		}
		return false;
	}

	static boolean isKey(String name) {
		if (name == null) {
			return false;
		}
		// uid.text.opaque.key, UID_TEXT_OPAQUE_KEY, uid.text.opaque.previous-keys[b], uid.text.opaque.previousKeys.b,
		// and uid.text.opaque itself, where a key given in the group's place would stand.
		String plain = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
		return plain.equals("uidtextopaque") || plain.equals("uidtextopaquekey")
				|| plain.startsWith("uidtextopaquepreviouskeys");
	}

}
