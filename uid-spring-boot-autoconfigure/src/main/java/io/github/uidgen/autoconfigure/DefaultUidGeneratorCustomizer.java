package io.github.uidgen.autoconfigure;

import io.github.uidgen.snowflake.DefaultUidGenerator;

/**
 * Customizes the builder of the auto-configured {@link DefaultUidGenerator} after the {@code uid.*} properties are
 * applied and before it is built: another clock, or settings no property offers.
 * Customizer beans run in {@link org.springframework.core.annotation.Order @Order} order.
 */
@FunctionalInterface
public interface DefaultUidGeneratorCustomizer {

	/**
	 * Customizes the builder.
	 * @param builder the builder, with the {@code uid.*} properties applied
	 */
	void customize(DefaultUidGenerator.Builder builder);

}
