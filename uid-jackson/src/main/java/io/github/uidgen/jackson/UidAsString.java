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

}
