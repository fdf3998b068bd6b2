package io.github.uidgen.autoconfigure;

import io.github.uidgen.snowflake.CachedUidGenerator;

/**
 * Customizes the builder of the auto-configured {@link CachedUidGenerator} after the {@code uid.*} properties are
 * applied and before it is built: another clock, take or put handler, or settings no property offers.
 * Customizer beans run in {@link org.springframework.core.annotation.Order @Order} order.
 */
@FunctionalInterface
public interface CachedUidGeneratorCustomizer {

	/**
	 * Customizes the builder.
	 * @param builder the builder, with the {@code uid.*} properties applied
	 */
	void customize(CachedUidGenerator.Builder builder);

}
