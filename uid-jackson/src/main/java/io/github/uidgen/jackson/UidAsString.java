package io.github.uidgen.jackson;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import com.fasterxml.jackson.annotation.JacksonAnnotationsInside;
import tools.jackson.databind.annotation.JsonDeserialize;
import tools.jackson.databind.annotation.JsonSerialize;

/**
 * Writes a {@code long} or {@code Long} ID as a JSON string ({@code "250085535756849152"}) and reads it back from a
 * string or a number. On an array, collection, {@code Optional} or map of IDs it applies to each ID (a map's
 * values): {@code @UidAsString List<Long> ids} is written {@code ["1","2"]}. On a property of any other type the
 * mapper refuses to write or read the class.
 *
 * <p>A JavaScript number holds integers exactly only up to 2^53, so a browser reading a 64-bit ID as a number
 * silently changes its last digits. Put this on the ID fields (or getters, or record components) that leave the
 * service as JSON:
 *
 * <pre class="code">
 * record OrderView(&#64;UidAsString long id, String item) {
 * }
 * </pre>
 *
 * <p>A form other than decimal is named on the annotation ({@code @UidAsString(Form.RADIX62)},
 * {@code @UidAsString(value = Form.OPAQUE, prefix = "ORD_")}); such a property reads only text of its form (a JSON
 * number is refused, so an opaque ID cannot be bypassed with the plain one). Decimal properties read numbers too.
 * With Spring Boot, a form the application cannot give (opaque without a key) fails the start, naming the property.
 *
 * <p>To write every {@code long} as a string instead, register {@link UidJacksonModule#allLongsAsStrings()} (with
 * Spring Boot: {@code uid.jackson.write-longs-as-strings=true}).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.ANNOTATION_TYPE })
@JacksonAnnotationsInside
@JsonSerialize(using = UidAsStringSerializer.class)
@JsonDeserialize(using = UidAsStringDeserializer.class)
public @interface UidAsString {

	/**
	 * The text form of the IDs.
	 * @return the form; {@link Form#DEFAULT} is {@code uid.text.form} with Spring Boot, decimal without
	 */
	Form value() default Form.DEFAULT;

	/**
	 * Text written before each ID and required before it on reading, for example {@code ORD_}.
	 * @return the prefix, empty for none
	 */
	String prefix() default "";

	/**
	 * Text written after each ID and required after it on reading.
	 * @return the suffix, empty for none
	 */
	String suffix() default "";

	/**
	 * FF1's tweak for the opaque form of this use, for example {@code orders} or the prefix: the same ID gives
	 * unrelated texts under different tweaks, so texts of one use cannot be matched with those of another made with
	 * the same key. Empty for the application's tweak ({@code uid.text.opaque.tweak}, empty by default); only for the
	 * opaque form (a tweak on another form fails the start). Take a tweak on a use that has texts out there together
	 * with a new key version (see {@code docs/ids-as-text.md}), or its old texts read as other IDs.
	 * @return the tweak, empty for the application's
	 */
	String tweak() default "";

	/**
	 * The text forms of {@code io.github.uidgen.text.UidFormats}. Forms other than decimal, radix 62 and radix 36
	 * need settings (the layout, a key) that {@link UidTextModule} brings, as Spring Boot registers it.
	 */
	enum Form {

		/** The application's default form ({@code uid.text.*}); decimal without {@link UidTextModule}. */
		DEFAULT,

		/** Decimal digits. */
		DECIMAL,

		/** Radix 62, {@code 0-9A-Za-z}. */
		RADIX62,

		/** Radix 36, {@code 0-9a-z}, read in either case. */
		RADIX36,

		/** Time, worker and sequence spelled out. */
		READABLE,

		/** FF1 over the ID's bits under the application's key: hides order, time and volume. */
		OPAQUE

	}

}
