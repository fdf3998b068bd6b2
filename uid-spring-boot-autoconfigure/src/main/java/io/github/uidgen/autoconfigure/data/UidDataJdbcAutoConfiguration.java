package io.github.uidgen.autoconfigure.data;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.autoconfigure.UidGeneratorAutoConfiguration;
import io.github.uidgen.persistence.jdbc.UidIdBeforeConvertCallback;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.data.relational.core.mapping.RelationalMappingContext;
import org.springframework.data.relational.core.mapping.event.BeforeConvertCallback;

/**
 * Auto-configures the callback that gives Spring Data JDBC aggregates whose {@code @Id} carries {@code @UidId} their
 * ID from the application's {@link UidGenerator}. (JPA needs nothing here: Hibernate asks Spring for the generator.)
 */
@AutoConfiguration(after = UidGeneratorAutoConfiguration.class)
@ConditionalOnClass({ BeforeConvertCallback.class, UidIdBeforeConvertCallback.class })
@ConditionalOnBean(UidGenerator.class)
public final class UidDataJdbcAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	UidIdBeforeConvertCallback uidIdBeforeConvertCallback(ObjectProvider<RelationalMappingContext> mappingContext,
			ObjectProvider<UidGenerator> uidGenerator) {
		return new UidIdBeforeConvertCallback(mappingContext::getObject, uidGenerator::getObject);
	}

}
