package io.github.uidgen.autoconfigure.text;

import java.util.Locale;

import org.springframework.boot.actuate.endpoint.SanitizableData;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;

/**
 * Hides the opaque form's keys in the {@code env} and {@code configprops} endpoints even where they show values
 * ({@code show-values=always}): a key is a secret whatever an endpoint's settings, whether it is named as a
 * property ({@code uid.text.opaque.key}, {@code uid.text.opaque.previous-keys.b}) or as an environment variable
 * ({@code UID_TEXT_OPAQUE_KEY}).
 */
final class OpaqueKeySanitizer implements SanitizingFunction {

	@Override
	public SanitizableData apply(SanitizableData data) {
		return isKey(data.getKey()) ? data.withSanitizedValue() : data;
	}

	static boolean isKey(String name) {
		if (name == null) {
			return false;
		}
		// uid.text.opaque.key, UID_TEXT_OPAQUE_KEY, uid.text.opaque.previous-keys[b], uid.text.opaque.previousKeys.b
		String plain = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
		return plain.equals("uidtextopaquekey") || plain.startsWith("uidtextopaquepreviouskeys");
	}

}
