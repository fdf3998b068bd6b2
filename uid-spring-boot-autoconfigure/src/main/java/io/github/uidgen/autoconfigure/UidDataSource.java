package io.github.uidgen.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.beans.factory.annotation.Qualifier;

/**
 * Marks the {@link javax.sql.DataSource} the db worker-ID assigner uses, for an application with several: without
 * it, the assigner uses the only one, or the {@code @Primary} one. Put it on the {@code @Bean} method (or class) of
 * the DataSource that holds the worker-ID table, as Spring Boot's {@code @FlywayDataSource} marks Flyway's.
 */
@Target({ ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.TYPE, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Qualifier
public @interface UidDataSource {

}
