package io.github.uidgen.jackson;

import io.github.uidgen.text.UidFormats;
import tools.jackson.databind.cfg.MapperConfig;
import tools.jackson.databind.introspect.Annotated;
import tools.jackson.databind.introspect.NopAnnotationIntrospector;
import tools.jackson.databind.module.SimpleModule;

/**
 * A Jackson module that gives {@link UidAsString} the application's text forms: its layout (for the readable form
 * and fixed widths), its default form and its opaque keys. Without it, {@code @UidAsString} knows only the forms that
 * need no settings. Spring Boot registers it from {@code uid.text.*}.
 */
public final class UidTextModule extends SimpleModule {

	private static final long serialVersionUID = 1L;

	private final transient UidFormats formats;

	/**
	 * Creates the module.
	 * @param formats the application's text forms
	 */
	public UidTextModule(UidFormats formats) {
		super(UidTextModule.class.getName());
		this.formats = formats;
	}

	@Override
	public void setupModule(SetupContext context) {
		super.setupModule(context);
		context.insertAnnotationIntrospector(new FormsIntrospector(this.formats));
	}

	/** Answers {@code @UidAsString} with serializers that know the forms, ahead of its meta-annotations. */
	private static final class FormsIntrospector extends NopAnnotationIntrospector {

		private static final long serialVersionUID = 1L;

		private final transient UidFormats formats;

		FormsIntrospector(UidFormats formats) {
			this.formats = formats;
		}

		@Override
		public Object findSerializer(MapperConfig<?> config, Annotated annotated) {
			return annotated.hasAnnotation(UidAsString.class) ? new UidAsStringSerializer(this.formats) : null;
		}

		@Override
		public Object findDeserializer(MapperConfig<?> config, Annotated annotated) {
			return annotated.hasAnnotation(UidAsString.class) ? new UidAsStringDeserializer(this.formats) : null;
		}

	}

}
