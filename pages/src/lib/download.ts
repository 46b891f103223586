import { readAnswer, staffFetch } from "./api";

/**
 * Downloads a staff file (a CSV export) under the name the worker gives it
 * in Content-Disposition, else `fallbackName`. A refusal throws an ApiError
 * with the worker's words (a colleague an owner took 'Exportar CSV' from).
 */
export async function downloadStaffFile(path: string, fallbackName: string): Promise<void> {
  const response = await staffFetch(path);
  // readAnswer throws on every answer that is not ok.
  if (!response.ok) await readAnswer(response);
  const blob = await response.blob();
  const name = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") ?? "")?.[1] ?? fallbackName;
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
