package io.github.uidgen.mybatisplus.autoconfigure;

import com.baomidou.mybatisplus.core.incrementer.IdentifierGenerator;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.mybatisplus.UidIdentifierGenerator;
import io.github.uidgen.segment.SegmentUidGenerators;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configures the {@link IdentifierGenerator} that gives MyBatis-Plus {@code ASSIGN_ID} keys from the
 * application's {@link UidGenerator}; MyBatis-Plus uses the single bean of that type it finds. An
 * {@code IdentifierGenerator} bean of the application's own wins.
 */
@AutoConfiguration(afterName = "io.github.uidgen.autoconfigure.UidGeneratorAutoConfiguration",
		beforeName = "com.baomidou.mybatisplus.autoconfigure.MybatisPlusAutoConfiguration")
@ConditionalOnClass(IdentifierGenerator.class)
@ConditionalOnBean(UidGenerator.class)
public final class UidMybatisPlusAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(IdentifierGenerator.class)
	UidIdentifierGenerator uidIdentifierGenerator(UidGenerator uidGenerator,
			ObjectProvider<SegmentUidGenerators> segmentGenerators) {
		return new UidIdentifierGenerator(uidGenerator, segmentGenerators.getIfAvailable());
	}

}
