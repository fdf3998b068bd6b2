package io.github.uidgen.persistence;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.github.uidgen.persistence.hibernate.UidIdGenerator;
import org.hibernate.annotations.IdGeneratorType;

/**
 * Fills an entity's {@code long} or {@code Long} {@code @Id} from the application's
 * {@link io.github.uidgen.UidGenerator} when the entity is first saved, so the key is known before the insert and
 * no database sequence or auto-increment column is needed.
 *
 * <pre class="code">
 * &#64;Entity
 * class Order {
 *
 * 	&#64;Id
 * 	&#64;UidId
 * 	private Long id;
 *
 * }
 * </pre>
 *
 * <p>It works for JPA with Hibernate 7 (through {@link IdGeneratorType}: Hibernate asks Spring for the
 * {@code UidGenerator} bean) and for Spring Data JDBC (through a {@code BeforeConvertCallback} that the Spring Boot
 * starter registers), with the same annotation. Spring Data JDBC fills only an ID that is {@code null} (or
 * {@code 0} for a {@code long}); Hibernate fills the ID of every entity it persists.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.FIELD, ElementType.METHOD })
@IdGeneratorType(UidIdGenerator.class)
public @interface UidId {

}
