package io.github.uidgen.autoconfigure;

import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Checks the {@code uid.*} settings as a whole before any bean is created, so that no worker-ID store is contacted
 * for a configuration that is refused: backup worker IDs where they would do nothing ({@link BackupWorkerIdsCheck}),
 * the Jackson switch without uid-jackson ({@link JacksonSwitchCheck}), and a warning for every property no part of
 * uid reads ({@link UnknownUidProperties}).
 */
final class UidSettingsCheck implements BeanFactoryPostProcessor, Ordered {

	private final Environment environment;

	UidSettingsCheck(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
		Binder binder = Binder.get(this.environment);
		BackupWorkerIdsCheck.check(binder);
		ClassLoader classLoader = (beanFactory.getBeanClassLoader() != null) ? beanFactory.getBeanClassLoader()
				: ClassUtils.getDefaultClassLoader();
		JacksonSwitchCheck.check(binder, classLoader);
		UnknownUidProperties.warnAboutUnknown(this.environment, classLoader);
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
