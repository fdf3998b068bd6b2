package io.github.uidgen.mybatisplus.app;

import com.baomidou.mybatisplus.annotation.IdType;
import com.baomidou.mybatisplus.annotation.TableId;
import com.baomidou.mybatisplus.annotation.TableName;

/** An entity with a {@code String} key, the ID's decimal digits. */
@TableName("mp_note")
public class Note {

	@TableId(type = IdType.ASSIGN_ID)
	private String id;

	private String text;

	public Note() {
	}

	public Note(String text) {
		this.text = text;
	}

	public String getId() {
		return this.id;
	}

	public void setId(String id) {
		this.id = id;
	}

	public String getText() {
		return this.text;
	}

	public void setText(String text) {
		this.text = text;
	}

}
