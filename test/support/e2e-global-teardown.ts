import { embeddedTemplate, removeDataDir } from './embedded-template';

export default function removeEmbeddedTemplate(): void {
  const template = embeddedTemplate();
  if (template !== undefined) removeDataDir(template);
}
