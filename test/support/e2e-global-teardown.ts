import { embeddedTemplate, rememberEmbeddedTemplate, removeDataDir } from './embedded-template';

export default function removeEmbeddedTemplate(): void {
  const template = embeddedTemplate();
  if (template === undefined) return;
  removeDataDir(template);
  rememberEmbeddedTemplate(undefined);
}
