package io.github.uidgen.autoconfigure;

import io.github.uidgen.segment.SegmentUidGenerator;

/**
 * Customizes the settings every auto-configured {@link SegmentUidGenerator} is built with, after the
 * {@code uid.segment.*} properties are applied: another clock, or settings no property offers. Customizer beans run
 * in {@link org.springframework.core.annotation.Order @Order} order.
 */
@FunctionalInterface
public interface SegmentUidGeneratorCustomizer {

	/**
	 * Customizes the builder.
	 * @param builder the builder, with the {@code uid.segment.*} properties applied
	 */
	void customize(SegmentUidGenerator.Builder builder);

}
