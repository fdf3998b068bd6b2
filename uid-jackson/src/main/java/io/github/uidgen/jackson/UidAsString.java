package io.github.uidgen.jackson;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import com.fasterxml.jackson.annotation.JacksonAnnotationsInside;
import tools.jackson.databind.annotation.JsonSerialize;
import tools.jackson.databind.ser.std.ToStringSerializer;

/**
 * Writes a {@code long} or {@code Long} ID as a JSON string ({@code "250085535756849152"}) and reads it back from a
 * string or a number (Jackson reads a quoted number into a {@code long} unless the mapper was told not to coerce
 * scalars).
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
 * <p>To write every {@code long} as a string instead, register {@link UidJacksonModule#allLongsAsStrings()} (with
 * Spring Boot: {@code uid.jackson.write-longs-as-strings=true}).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.ANNOTATION_TYPE })
@JacksonAnnotationsInside
@JsonSerialize(using = ToStringSerializer.class)
public @interface UidAsString {

}
